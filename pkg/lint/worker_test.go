package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

func workerFindings(t *testing.T, conf, check string) []string {
	t.Helper()
	wc, err := ReadWorkerConfig([]byte(conf), "worker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set := &objects.Set{}
	rules := "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}, {feature: rule.matched, matchExpressions: {b: {op: DoesNotExist}}}]\n"
	if ds := testkit.ReadText(set, []byte(rules), "r.yaml", false); ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return findingsOf(Static(set, Options{Master: master.DefaultOptions(), Worker: wc}), check)
}

// TestNoPublishFeatureWithheldByTheWorkerIsAnError reads the three forms
// of a worker configuration; a rule on a withheld feature is an error.
func TestNoPublishFeatureWithheldByTheWorkerIsAnError(t *testing.T) {
	forms := map[string]string{
		"worker-conf":  "core:\n  noPublishFeatures: [\"pci.*\"]\n",
		"configmap":    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: w}\ndata:\n  nfd-worker.conf: |\n    core:\n      noPublishFeatures: [pci.device]\n",
		"helm-values":  "worker:\n  config:\n    core:\n      noPublishFeatures: [\"pci.*\"]\n",
		"case-of-keys": "Core:\n  NoPublishFeatures: [\"pci.*\"]\n",
	}
	for name, conf := range forms {
		t.Run(name, func(t *testing.T) {
			got := workerFindings(t, conf, "no-publish-feature")
			if len(got) != 1 || !strings.HasPrefix(got[0], "error spec.rules[0].matchFeatures[0].feature: the nfd-worker configuration worker.yaml withholds pci.device") {
				t.Errorf("findings = %q", got)
			}
		})
	}
	if got := workerFindings(t, "core:\n  noPublishFeatures: [\"usb.*\"]\n", "no-publish-feature"); len(got) != 0 {
		t.Errorf("a feature the worker publishes is reported: %q", got)
	}
}

// TestWorkerCustomRuleRefusesGeLeAndType checks the custom source's
// operators and its missing type field.
func TestWorkerCustomRuleRefusesGeLeAndType(t *testing.T) {
	conf := `sources:
  custom:
  - name: x
    labels: {x: "true"}
    matchFeatures:
    - feature: kernel.version
      matchExpressions:
        major: {op: GeLe, value: ["5", "6"]}
        minor: {op: Gt, value: ["1"]}
    matchAny:
    - matchFeatures:
      - feature: kernel.version
        matchExpressions:
          full: {op: Gt, value: ["6.8.0"], type: version}
`
	got := workerFindings(t, conf, "worker-custom-rule")
	want := []string{
		`error sources.custom[0].matchFeatures[0].matchExpressions.major.op: invalid Op "GeLe" (nfd-worker's custom rules know In,`,
		`error sources.custom[0].matchAny[0].matchFeatures[0].matchExpressions.full.type: unknown field "type": nfd-worker v0.19 ignores it; the custom source has no type field`,
	}
	if len(got) != len(want) {
		t.Fatalf("findings = %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d = %q, want %q...", i, got[i], want[i])
		}
	}
}

// TestWorkerCustomRulesUnderAMiscasedSourceAreNotChecked: nfd-worker
// reads sources.custom only by its exact name, so rules under
// sources.Custom never run and are not the custom source's to refuse.
func TestWorkerCustomRulesUnderAMiscasedSourceAreNotChecked(t *testing.T) {
	conf := "sources:\n  Custom:\n  - name: x\n    labels: {x: \"true\"}\n    matchFeatures:\n    - feature: kernel.version\n      matchExpressions:\n        major: {op: Ge, value: [\"5\"]}\n"
	if got := workerFindings(t, conf, "worker-custom-rule"); len(got) != 0 {
		t.Errorf("rules under sources.Custom, which nfd-worker ignores, are reported: %q", got)
	}
	if got := workerFindings(t, strings.Replace(conf, "Custom", "custom", 1), "worker-custom-rule"); len(got) != 1 {
		t.Errorf("the same rules under sources.custom give %q, want one finding", got)
	}
}

// TestWorkerConfigMapInTheInputIsTheWorkersConfiguration reads the
// ConfigMap NFD's Helm chart makes (data["nfd-worker.conf"]) as an object
// of the input: its findings name the ConfigMap and the field inside it.
func TestWorkerConfigMapInTheInputIsTheWorkersConfiguration(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nfd-worker-conf, namespace: nfd}\ndata:\n  nfd-worker.conf: |-\n    core:\n      noPublishFeatures: [pci.device]\n    sources:\n      custom:\n      - name: x\n        labels: {x: \"true\"}\n        matchFeatures:\n        - feature: kernel.version\n          matchExpressions:\n            major: {op: Ge, value: [\"5\"]}\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(cm), &doc); err != nil {
		t.Fatal(err)
	}
	ref := diag.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Name: "nfd-worker-conf", Namespace: "nfd"}
	wc, err := ReadWorkerConfigMap(&doc, ref, "nfd/worker.yaml")
	if err != nil || wc == nil {
		t.Fatalf("ReadWorkerConfigMap = %v, %v", wc, err)
	}
	set := &objects.Set{}
	testkit.ReadText(set, []byte("apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}]\n"), "r.yaml", false)
	var got []string
	for _, d := range Static(set, Options{Master: master.DefaultOptions(), Worker: wc}) {
		if d.Check == "worker-custom-rule" || d.Check == "no-publish-feature" {
			got = append(got, fmt.Sprintf("%s %s %s:%d:%d %s: %s", d.Severity, d.Object.Name, d.Pos.File, d.Pos.Line, d.Pos.Column, d.Field, d.Message))
		}
	}
	want := []string{
		`error r r.yaml:8:31 spec.rules[0].matchFeatures[0].feature: the nfd-worker configuration in ConfigMap nfd-worker-conf withholds pci.device`,
		`error nfd-worker-conf nfd/worker.yaml:15:25 data[nfd-worker.conf].sources.custom[0].matchFeatures[0].matchExpressions.major.op: invalid Op "Ge"`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(got) != len(want) {
		t.Fatalf("findings = %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d = %q, want %q...", i, got[i], want[i])
		}
	}
	for _, other := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nfd-master-conf}\ndata:\n  nfd-master.conf: \"{}\"\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  nfd-worker.conf: \"{}\"\n",
	} {
		var d yaml.Node
		if err := yaml.Unmarshal([]byte(other), &d); err != nil {
			t.Fatal(err)
		}
		kind := d.Content[0].Content[3].Value
		if wc, err := ReadWorkerConfigMap(&d, diag.ObjectRef{Kind: kind}, "x.yaml"); wc != nil || err != nil {
			t.Errorf("%s read as a worker configuration: %v, %v", other, wc, err)
		}
	}
	var bad yaml.Node
	if err := yaml.Unmarshal([]byte("kind: ConfigMap\ndata:\n  nfd-worker.conf: \"core: [\"\n"), &bad); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadWorkerConfigMap(&bad, diag.ObjectRef{Kind: "ConfigMap", Name: "w"}, "x.yaml"); err == nil || !strings.Contains(err.Error(), `ConfigMap w data["nfd-worker.conf"] is not YAML`) {
		t.Errorf("a configuration that does not parse: %v", err)
	}
}

// TestWorkerConfigIsReadAsTheReleaseRenderedAs: the worker configuration
// is read as that release's nfd-worker reads it, as discover
// --nfd-version does: v0.18 has no core.noPublishFeatures (ignored, so
// it withholds nothing), v0.19 withholds the feature.
func TestWorkerConfigIsReadAsTheReleaseRenderedAs(t *testing.T) {
	wc, err := ReadWorkerConfig([]byte("core:\n  noPublishFeatures: [pci.device]\n"), "worker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set := &objects.Set{}
	testkit.ReadText(set, []byte("apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}]\n"), "r.yaml", false)
	for _, tc := range []struct{ release, want string }{
		{"v0.19.0", "no-publish-feature error spec.rules[0].matchFeatures[0].feature"},
		{"v0.18.3", `worker-config error core.noPublishFeatures: unknown field "noPublishFeatures": nfd-worker v0.18 ignores it`},
	} {
		opts := master.DefaultOptions()
		rel, err := release.Parse(tc.release)
		if err != nil {
			t.Fatal(err)
		}
		opts.Release = rel
		var got []string
		for _, d := range Static(set, Options{Master: opts, Worker: wc}) {
			if d.Check == "no-publish-feature" || d.Check == "worker-config" {
				got = append(got, fmt.Sprintf("%s %s %s: %s", d.Check, d.Severity, d.Field, d.Message))
			}
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%s: findings %q, want one starting %q", tc.release, got, tc.want)
		}
	}
}
