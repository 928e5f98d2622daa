package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"
)

// TestKptFunctionSDKResultsAsKptReadsThem is issue 26 point 6: the real
// binary under the real kpt (kpt fn eval --exec) reports a broken rule
// and a bad functionConfig setting as the kpt function SDK's results, and
// kpt's results file reads back into the SDK's fn.Result with every field
// nfd-fn set: severity, the object, the field and its proposed value, the
// file, the check tags; the functionConfig problem names the ConfigMap
// kpt made from the arguments (read by the SDK's KubeObject).
func TestKptFunctionSDKResultsAsKptReadsThem(t *testing.T) {
	kpt, err := exec.LookPath("kpt")
	if err != nil {
		t.Skip("kpt not installed")
	}
	bin := buildListTestBinary(t)
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	sink := exec.Command(kpt, "fn", "sink", pkg)
	sink.Stdin = strings.NewReader(strings.Replace(readFile(t, quickstartList), "op: Exists", "op: Exist", 1))
	if b, err := sink.CombinedOutput(); err != nil {
		t.Fatalf("kpt fn sink: %v\n%s", err, b)
	}
	res := filepath.Join(dir, "results")
	eval := exec.Command(kpt, "fn", "eval", pkg, "--exec", bin, "--results-dir", res, "--", "enableTaints=maybe")
	if b, err := eval.CombinedOutput(); err == nil {
		t.Fatalf("kpt fn eval succeeded on a broken rule:\n%s", b)
	}
	data, err := os.ReadFile(filepath.Join(res, "results.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []struct {
			Results []*sdk.Result `yaml:"results"`
		} `yaml:"items"`
	}
	if err := yaml.Unmarshal(data, &list); err != nil || len(list.Items) != 1 {
		t.Fatalf("kpt's results file (%v):\n%s", err, data)
	}
	want := map[string]*sdk.Result{
		"NFD300": {Severity: sdk.Error,
			Message: `the API server of NFD v0.19.0 refuses this NodeFeatureRule whole (v0.19.0's CRD schema): NodeFeatureRule.nfd.k8s-sigs.io "my-sample-rule-object" is invalid: spec.rules[0].matchFeatures[0].matchExpressions.dummy.op: ` +
				`Unsupported value: "Exist": supported values: "In", "NotIn", "InRegexp", "Exists", "DoesNotExist", "Gt", "Ge", "Lt", "Le", "GtLt", "GeLe", "IsTrue", "IsFalse"; no NFD release accepts it (did you mean "Exists"?)`,
			ResourceRef: &sdk.ResourceRef{APIVersion: "nfd.k8s-sigs.io/v1alpha1", Kind: "NodeFeatureRule", Name: "my-sample-rule-object"},
			Field:       &sdk.Field{Path: "spec.rules[0].matchFeatures[0].matchExpressions.dummy.op", ProposedValue: "Exists"},
			File:        &sdk.File{Path: "rules/sample.yaml"},
			Tags:        map[string]string{"check": "admission-rejected", "checkID": "NFD300"}},
	}
	got := map[string]*sdk.Result{}
	var config *sdk.Result
	for _, r := range list.Items[0].Results {
		if id := r.Tags["checkID"]; want[id] != nil {
			got[id] = r
		}
		if r.Field != nil && r.Field.Path == "data.enableTaints" {
			config = r
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results kpt read (-want +got):\n%s", diff)
	}
	if config == nil || config.ResourceRef == nil || config.ResourceRef.Kind != "ConfigMap" || config.ResourceRef.Name != "function-input" {
		t.Errorf("want a result about data.enableTaints on ConfigMap/function-input; got %+v in:\n%s", config, data)
	}
}
