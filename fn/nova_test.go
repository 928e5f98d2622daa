package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestNovaProviderConfigGolden runs every testdata/nova/<case>/input.yaml
// and compares the whole output ResourceList with expected.yaml.
func TestNovaProviderConfigGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/nova/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			got := runForTest(t, input)
			golden.Check(t, filepath.Join(dir, "expected.yaml"), got)
		})
	}
}

// TestNovaRerunIsStable renders each case's output again: the items must
// come back byte for byte, and no result may be new (nfd-fn's own
// ConfigMap is never taken for a hand-written one and compared with
// itself).
func TestNovaRerunIsStable(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/nova/*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			first, second := renderTwice(t, input)
			// The leading comment is the reader's business, not Nova's: an
			// input with "items: []" is read whole and keeps it, the
			// block-style output is not.
			if diff := cmp.Diff(string(skipLeadingComments(stripResults(t, first))), string(stripResults(t, second))); diff != "" {
				t.Errorf("the second run changed the items (-first +second):\n%s", diff)
			}
			before := map[string]bool{}
			for _, m := range resultMessages(t, first) {
				before[m] = true
			}
			for _, m := range resultMessages(t, second) {
				if !before[m] {
					t.Errorf("new result on the second run: %s", m)
				}
			}
		})
	}
}

func skipLeadingComments(b []byte) []byte {
	for bytes.HasPrefix(b, []byte("#")) {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil
		}
		b = b[i+1:]
	}
	return b
}

func resultMessages(t *testing.T, out []byte) []string {
	t.Helper()
	list := testkit.Read(t, out)
	var msgs []string
	for _, r := range list.Results {
		msgs = append(msgs, r.Severity+" "+r.ResourceRef["name"]+" "+r.Field.Path+": "+r.Message)
	}
	return msgs
}

func TestNovaProviderConfigIsOffByDefault(t *testing.T) {
	input, err := os.ReadFile("testdata/nova/mixed-fleet/input.yaml")
	if err != nil {
		t.Fatal(err)
	}
	off := bytes.Replace(input, []byte(`novaProviderConfig: "true"`), []byte(`novaProviderConfig: "false"`), 1)
	out := runForTest(t, off)
	if bytes.Contains(out, []byte(NovaConfigMapName)) {
		t.Errorf("novaProviderConfig false still wrote the ConfigMap:\n%s", out)
	}
}

// TestRenderNovaReturnsThePlainFile is nfd-fn render --output nova: the
// option is forced on, and the file is the ConfigMap's data, unwrapped.
func TestRenderNovaReturnsThePlainFile(t *testing.T) {
	input, err := os.ReadFile("testdata/nova/mixed-fleet/input.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var wrapped struct {
		Items []struct {
			Metadata struct{ Name string }
			Data     map[string]string
		}
	}
	if err := yaml.Unmarshal(runForTest(t, input), &wrapped); err != nil {
		t.Fatal(err)
	}
	var want string
	for _, it := range wrapped.Items {
		if it.Metadata.Name == NovaConfigMapName {
			want = it.Data[NovaDataKey]
		}
	}
	off := bytes.Replace(input, []byte(`novaProviderConfig: "true"`), []byte(`novaProviderConfig: "false"`), 1)
	file, diags, code, err := RenderNova(bytes.NewReader(off), RunOptions{})
	if err != nil || code != 0 || len(diags) != 0 {
		t.Fatalf("RenderNova: code %d, err %v, diagnostics:\n%v", code, err, diags)
	}
	if want == "" || string(file) != want {
		t.Errorf("file differs from the ConfigMap's data:\n--- file\n%s\n--- data\n%s", file, want)
	}
}

func TestRenderNovaReportsErrorsAndExitsNonZero(t *testing.T) {
	input, err := os.ReadFile("testdata/nova/hand-written-invalid/input.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file, diags, code, err := RenderNova(bytes.NewReader(input), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	// The diagnostics are the run's, one per result of the same run.
	var out bytes.Buffer
	if _, err := Run(input, &out, RunOptions{Output: NovaOutput(new([]byte))}); err != nil {
		t.Fatal(err)
	}
	if results := resultMessages(t, out.Bytes()); len(results) != len(diags) {
		t.Errorf("%d diagnostics, but the output has %d results", len(diags), len(results))
	}
	want := `nova/from-the-spec.yaml: error: ConfigMap/nova-from-the-spec data["llc.yaml"]: meta.schema_version: `
	if joined := diags.Error(); !strings.Contains(joined, want) {
		t.Errorf("diagnostics lack %q:\n%s", want, joined)
	}
	if !strings.HasPrefix(string(file), "# Nova provider config") {
		t.Errorf("no file written:\n%s", file)
	}
}

// TestNovaConfigFormsAgree checks that the ConfigMap and the typed
// functionConfig give the same settings.
func TestNovaConfigFormsAgree(t *testing.T) {
	configMap := `apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data:
  novaProviderConfig: "true"
  novaProviderConfigPath: openstack/providers.yaml
  novaTraitLabels: "^feature"
  novaInventoryDefaults: "reserved=1, min_unit=1,max_unit=4,step_size=2,allocation_ratio=2.5"
`
	typed := `apiVersion: fn.nfd-fn.dev/v1alpha1
kind: NFDFunctionConfig
novaProviderConfig: true
novaProviderConfigPath: openstack/providers.yaml
novaTraitLabels: "^feature"
novaInventoryDefaults: {reserved: 1, min_unit: 1, max_unit: 4, step_size: 2, allocation_ratio: "2.5"}
`
	a, b := loadTestConfig(t, configMap), loadTestConfig(t, typed)
	for _, s := range []config.NovaSettings{a, b} {
		if !s.Enabled || s.Path != "openstack/providers.yaml" || s.Mapping.TraitLabels.String() != "^feature" ||
			*s.Mapping.Defaults.StepSize != 2 || *s.Mapping.Defaults.AllocationRatio != 2.5 {
			t.Errorf("settings not as configured: %+v", s)
		}
	}
	if diff := cmp.Diff(a.Mapping.Defaults, b.Mapping.Defaults); diff != "" {
		t.Errorf("inventory defaults differ (-ConfigMap +typed):\n%s", diff)
	}
}

func loadTestConfig(t *testing.T, text string) config.NovaSettings {
	t.Helper()
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	s, problems := config.Load(krm.DocContent(&doc))
	if len(problems) > 0 {
		t.Fatalf("problems: %+v", problems)
	}
	return s.Nova
}

// TestNovaReadsInstancePrefixedTrackingAnnotations checks that with an
// instance name (which prefixes NFD's tracking annotations) the same
// traits and inventories come out.
func TestNovaReadsInstancePrefixedTrackingAnnotations(t *testing.T) {
	input, err := os.ReadFile("testdata/nova/mixed-fleet/input.yaml")
	if err != nil {
		t.Fatal(err)
	}
	withInstance := bytes.Replace(input, []byte(`novaProviderConfig: "true"`), []byte("novaProviderConfig: \"true\"\n    instance: lab"), 1)
	if bytes.Equal(withInstance, input) {
		t.Fatal("the input has no novaProviderConfig line to extend")
	}
	plain, _, _, err := RenderNova(bytes.NewReader(input), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	prefixed, report, _, err := RenderNova(bytes.NewReader(withInstance), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(runForTest(t, withInstance), []byte("lab.nfd.node.kubernetes.io/feature-labels")) {
		t.Fatalf("the instance did not prefix the tracking annotations; results: %v", report)
	}
	if diff := cmp.Diff(string(plain), string(prefixed)); diff != "" {
		t.Errorf("the provider config depends on the instance (-without +with):\n%s", diff)
	}
}
