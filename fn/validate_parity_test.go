package fn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestValidateDriversGiveTheSameFindings holds validate's two drivers to
// one answer: the files (nfd-fn validate DIR) and the KRM function (the
// same files as a ResourceList, made by kyaml's package reader as kpt fn
// source makes it) report the same findings, each with its severity,
// check, object, field, file and index and message, over rules with
// errors, a worker ConfigMap among the files and a fleet.
func TestValidateDriversGiveTheSameFindings(t *testing.T) {
	sets := []string{"certain-defects", "worker-configmap-among-files", "fleet", "duplicates", "backrefs", "unknown-fields", "templates",
		"an-unreadable-worker-configmap-before-the-one-used"}
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			if files := parityFiles[set]; files != nil {
				t.Chdir(t.TempDir())
				testkit.WriteFiles(t, ".", files)
			} else {
				t.Chdir(filepath.Join("..", "testdata", "validate", set))
			}
			fromFiles := validateFiles(t)
			if len(fromFiles) == 0 {
				t.Fatal("the files have no findings: nothing to compare")
			}
			for _, want := range parityMust[set] {
				if !slices.ContainsFunc(fromFiles, func(f string) bool { return strings.Contains(f, want) }) {
					t.Errorf("the files' findings lack %q:\n%s", want, strings.Join(fromFiles, "\n"))
				}
			}
			var out bytes.Buffer
			if _, err := Run(packageList(t, "."), &out, RunOptions{ForceMode: "validate"}); err != nil {
				t.Fatal(err)
			}
			fromList := findingsOf(resultsOf(t, out.Bytes()))
			if diff := cmp.Diff(fromFiles, fromList); diff != "" {
				t.Errorf("the KRM function's findings differ from the files' (-files +ResourceList):\n%s", diff)
			}
		})
	}
}

// parityFiles are the input sets of TestValidateDriversGiveTheSameFindings
// that are not among testdata/validate's.
var parityFiles = map[string]map[string]string{
	"an-unreadable-worker-configmap-before-the-one-used": {
		"a-broken.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken-conf, namespace: nfd}\ndata:\n  nfd-worker.conf: |\n    core: [\n",
		"b-worker.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: worker-conf, namespace: nfd}\ndata:\n  nfd-worker.conf: |\n    core:\n      noPublishFeatures: [\"usb.*\"]\n",
		"rules.yaml": "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: usb}\nspec:\n  rules:\n  - name: usb\n    labels: {usb: \"true\"}\n" +
			"    matchFeatures:\n    - feature: usb.device\n      matchExpressions: {vendor: {op: In, value: [\"1d6b\"]}}\n",
	},
}

// parityMust are findings an input set must give, so that what is
// compared is what the set is there for.
var parityMust = map[string][]string{
	"worker-configmap-among-files": {"[no-publish-feature]"},
	"fleet":                        {"[matches-no-node]"},
	"an-unreadable-worker-configmap-before-the-one-used": {"[no-publish-feature]", "ConfigMap/nfd/broken-conf data[nfd-worker.conf] a-broken.yaml#0"},
}

// validateFiles is what `nfd-fn validate .` finds, as KRM results.
func validateFiles(t *testing.T) []string {
	t.Helper()
	files := modes.OpenFiles([]string{"."}, nil)
	defer files.Close()
	if _, err := files.LoadSettings(modes.SettingsFlags{}); err != nil {
		t.Fatal(err)
	}
	ds, _, err := modes.ValidateFiles(files, modes.ValidateFilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteResultsJSON(&b, ds); err != nil {
		t.Fatal(err)
	}
	var results []testkit.Result
	if err := json.Unmarshal(b.Bytes(), &results); err != nil {
		t.Fatal(err)
	}
	return findingsOf(results)
}

// findingsOf is each result as one line of what both drivers must agree
// on, sorted: the file driver's lines and columns, which a ResourceList's
// results have no field for, are left out.
func findingsOf(results []testkit.Result) []string {
	out := make([]string, 0, len(results))
	for _, r := range results {
		ref := r.ResourceRef
		out = append(out, fmt.Sprintf("%s [%s] %s %s/%s/%s %s %s#%d: %s", r.Severity, r.Tags["check"],
			ref["apiVersion"], ref["kind"], ref["namespace"], ref["name"], r.Field.Path, r.File.Path, r.File.Index, r.Message))
	}
	slices.Sort(out)
	return out
}

// packageList is the package at dir as kpt fn source gives it to a
// function: a ResourceList whose items carry their file's path and index.
func packageList(t *testing.T, dir string) []byte {
	t.Helper()
	var b bytes.Buffer
	err := kio.Pipeline{
		Inputs:  []kio.Reader{kio.LocalPackageReader{PackagePath: dir}},
		Outputs: []kio.Writer{kio.ByteWriter{Writer: &b, KeepReaderAnnotations: true, WrappingKind: kio.ResourceListKind, WrappingAPIVersion: kio.ResourceListAPIVersion}},
	}.Execute()
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.TrimSpace(b.String()) + "\n")
}

// resultsOf are the results of an output ResourceList; its items, which
// may have keys JSON has not (a mapping as a key), are not read.
func resultsOf(t *testing.T, out []byte) []testkit.Result {
	t.Helper()
	var doc struct {
		Results yaml.Node `yaml:"results"`
	}
	if err := yaml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("output is not YAML: %v", err)
	}
	text, err := yaml.Marshal(&doc.Results)
	if err != nil {
		t.Fatal(err)
	}
	var results []testkit.Result
	if err := sigsyaml.Unmarshal(text, &results); err != nil {
		t.Fatalf("the output's results: %v\n%s", err, text)
	}
	return results
}
