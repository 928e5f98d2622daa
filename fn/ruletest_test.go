package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// runModeTest runs mode test over the vendors' rules, the cluster export
// (its functionConfig, which the RuleTests name in spec.config, among
// them) and the GPU group with one RuleTest among them, as kpt hands a
// package over: the RuleTest is one more item.
func runModeTest(t *testing.T, suite string) (testkit.List, int) {
	t.Helper()
	var fc yaml.Node
	if err := yaml.Unmarshal([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fc}\ndata: {mode: test, enableTaints: \"true\"}\n"), &fc); err != nil {
		t.Fatal(err)
	}
	paths := []string{"../testdata/cluster-export/rules", "../testdata/cluster-export/snapshot.yaml", "../testdata/cluster-export/config.yaml", "../testdata/ruletest/groups", suite}
	var out bytes.Buffer
	code, err := RunFiles(paths, nil, fc.Content[0], &out, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return testkit.Read(t, out.Bytes()), code
}

// TestModeTestReportsEachFailedExpectationOnItsRuleTest: under kpt each
// failed expectation is an error result on the RuleTest item (its file,
// its message naming the line, the node, the key, the expected and the
// got value; its field path the expectation), and the run exits 1.
func TestModeTestReportsEachFailedExpectationOnItsRuleTest(t *testing.T) {
	list, code := runModeTest(t, "../testdata/ruletest/fail/vendors-wrong.ruletest.yaml")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var errs []string
	at := map[string]string{}
	for _, r := range list.Results {
		if r.Severity == "error" {
			if r.ResourceRef["kind"] != "RuleTest" || r.ResourceRef["name"] != "vendor-rules-wrong" || !strings.HasSuffix(r.File.Path, "vendors-wrong.ruletest.yaml") || r.File.Index != 0 {
				t.Errorf("error result not on the RuleTest: %+v", r)
			}
			errs = append(errs, r.Message)
			at[r.Field.Path] = strings.SplitN(r.Message, ":", 2)[0]
		}
	}
	// Each failure points at its expectation: the field path, and the
	// file's line in the message (a KRM result's file has no line).
	for field, line := range map[string]string{
		`spec.expect.nodes[0].labels["nvidia.com/gds.capable"]`: "line 17",
		`spec.expect.nodes[0].absentLabels[0]`:                  "line 19",
		`spec.expect.nodes[0].absentLabels[1]`:                  "line 19",
		`spec.expect.nodes[0].taints[0]`:                        "line 20",
		`spec.expect.nodes[1]`:                                  "line 22",
		`spec.expect.groups[0]`:                                 "line 24",
		`spec.expect.findings[1]`:                               "line 28",
		`spec.inputs`:                                           "line 10",
	} {
		if at[field] != line {
			t.Errorf("failure at %s: message starts %q, want %q (failures by field: %v)", field, at[field], line, at)
		}
	}
	joined := strings.Join(errs, "\n")
	for _, want := range []string{
		`node mi300x-node-01: label nvidia.com/gds.capable: expected "true", got absent`,
		`nvidia_fs Exists: false (saw absent)`,
		`group node-feature-discovery/gpu-nodes: members: expected [dgx-h100-01], got [dgx-h100-01, mi300x-node-01]`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no error result with %q in:\n%s", want, joined)
		}
	}
	if len(errs) != 10 {
		t.Errorf("%d error results, want the 10 failed expectations", len(errs))
	}
}

// TestModeTestPassingSuiteIsOneInfoResult: a suite whose expectations all
// hold is one info result saying so, and the run exits 0.
func TestModeTestPassingSuiteIsOneInfoResult(t *testing.T) {
	list, code := runModeTest(t, "../testdata/ruletest/pass/vendors.ruletest.yaml")
	if code != 0 {
		t.Errorf("exit %d, want 0: %v", code, list.Results)
	}
	found := false
	for _, r := range list.Results {
		if r.Severity == "error" {
			t.Errorf("error result: %s", r.Message)
		}
		found = found || r.Message == "RuleTest vendor-rules: 11 of 11 expectations passed"
	}
	if !found {
		t.Errorf("no info result for the suite in %v", list.Results)
	}
}

// runKptPackage runs mode test over the package dir (as kpt hands it
// over: every file's objects are items with their path annotations)
// from inside it, and returns the results' messages.
func runKptPackage(t *testing.T, dir string, extra ...string) ([]testkit.Result, int) {
	t.Helper()
	return runKptPackageWith(t, dir, RunOptions{}, extra...)
}

// runKptPackageWith is runKptPackage with the command line's options.
func runKptPackageWith(t *testing.T, dir string, opts RunOptions, extra ...string) ([]testkit.Result, int) {
	t.Helper()
	var fc yaml.Node
	if err := yaml.Unmarshal([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fc}\ndata: {mode: test}\n"), &fc); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var out bytes.Buffer
	code, err := RunFiles(append([]string{"."}, extra...), nil, fc.Content[0], &out, opts)
	if err != nil {
		t.Fatal(err)
	}
	return testkit.Read(t, out.Bytes()).Results, code
}

// TestModeTestRendersEachRuleTestWithItsOwnInputsAndSettings: under kpt
// a RuleTest's nfdVersion, config and inputs apply: the package's rule is
// refused as v0.17.1 and labels as v0.19.0, taints with the config item
// it names, and is left out by a RuleTest whose inputs are the nodes
// alone; every suite passes only if each render is its own.
func TestModeTestRendersEachRuleTestWithItsOwnInputsAndSettings(t *testing.T) {
	results, code := runKptPackage(t, "../testdata/ruletest/kpt")
	var infos []string
	for _, r := range results {
		if r.Severity == "error" {
			t.Errorf("error result: %s (%s)", r.Message, r.Field.Path)
		}
		if strings.HasPrefix(r.Message, "RuleTest ") {
			infos = append(infos, r.Message)
		}
	}
	want := []string{
		"RuleTest nodes-alone: 2 of 2 expectations passed",
		"RuleTest taints-on: 2 of 2 expectations passed",
		"RuleTest as-v0.17: 3 of 3 expectations passed",
		"RuleTest as-v0.19: 3 of 3 expectations passed",
	}
	if code != 0 || strings.Join(infos, "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d, suites:\n%s\nwant exit 0 and:\n%s", code, strings.Join(infos, "\n"), strings.Join(want, "\n"))
	}
}

// TestModeTestRuleTestConfigKeepsTheCommandLinesSettings: a RuleTest's
// own config replaces the functionConfig, not what the command line sets
// (`nfd-fn test` gives --nfd-version and --feature-catalog to a suite's
// spec.config too): under --nfd-version v0.17.1, taints-on (a config of
// its own, no nfdVersion) renders as v0.17.1, whose CRDs refuse its rule.
func TestModeTestRuleTestConfigKeepsTheCommandLinesSettings(t *testing.T) {
	results, code := runKptPackageWith(t, "../testdata/ruletest/kpt", RunOptions{NFDVersion: "v0.17.1"})
	var taintsOn []string
	for _, r := range results {
		if r.ResourceRef["name"] == "taints-on" && r.Severity == "error" {
			taintsOn = append(taintsOn, r.Message)
		}
	}
	if code != 1 || !strings.Contains(strings.Join(taintsOn, "\n"), "NFD300") {
		t.Errorf("exit %d; taints-on's errors:\n%s\nwant the suite failed on NFD300, as v0.17.1 refuses its rule", code, strings.Join(taintsOn, "\n"))
	}
}

// TestModeTestPathNotAmongTheItemsIsAnErrorOnTheRuleTestField: a KRM
// function reads no files, so an input, config or workerConfig that is
// no item of the package is an error result on the RuleTest, at the
// field and (in the message) the line that names it; the suite is not
// run and the others still are.
func TestModeTestPathNotAmongTheItemsIsAnErrorOnTheRuleTestField(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.ruletest.yaml")
	text := "apiVersion: nfd-fn.dev/v1alpha1\nkind: RuleTest\nmetadata:\n  name: strays\nspec:\n  config: ../config/missing.yaml\n  workerConfig: ../nodes/a.yaml\n  inputs:\n    - ../rules\n    - ../../elsewhere\n  expect: {}\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs("../testdata/ruletest/kpt")
	if err != nil {
		t.Fatal(err)
	}
	pkg := t.TempDir()
	if err := os.CopyFS(pkg, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(bad, filepath.Join(pkg, "tests", "bad.ruletest.yaml")); err != nil {
		t.Fatal(err)
	}
	results, code := runKptPackage(t, pkg)
	got := map[string]string{}
	for _, r := range results {
		if r.Severity == "error" {
			if r.ResourceRef["name"] != "strays" || r.File.Path != "tests/bad.ruletest.yaml" {
				t.Errorf("error result not on the RuleTest strays: %+v", r)
			}
			got[r.Field.Path] = r.Message
		}
	}
	want := map[string]string{
		"spec.inputs[1]":    "line 10: spec.inputs[1]: ../../elsewhere: no item of the package is at ../elsewhere",
		"spec.config":       "line 6: spec.config: ../config/missing.yaml: no item of the package is at config/missing.yaml",
		"spec.workerConfig": "line 7: spec.workerConfig: ../nodes/a.yaml: no ConfigMap holding nfd-worker.conf among the items at this path",
	}
	for field, msg := range want {
		if !strings.HasPrefix(got[field], msg) {
			t.Errorf("result at %s: %q, want it to start %q", field, got[field], msg)
		}
	}
	if code != 1 || len(got) != len(want) {
		t.Errorf("exit %d, errors %v: want exit 1 and the %d errors above", code, got, len(want))
	}
}

// TestModeTestRuleTestWithoutPathIsCheckedAgainstEveryItem: a RuleTest
// with no path annotation (kustomize gives none) cannot have its paths
// looked up: it is checked against every item, with the functionConfig's
// settings and its own nfdVersion, and an info result says so.
func TestModeTestRuleTestWithoutPathIsCheckedAgainstEveryItem(t *testing.T) {
	suite := `- apiVersion: nfd-fn.dev/v1alpha1
  kind: RuleTest
  metadata: {name: no-path}
  spec:
    nfdVersion: v0.17.1
    inputs: [../rules]
    expect:
      nodes:
      - {node: a, absentLabels: [feature.node.kubernetes.io/k6]}
      findings:
      - {check: NFD300, object: NodeFeatureRule/ge}
`
	res := results(runRelease(t, releaseList("mode: test", "", suite), RunOptions{}))
	note := "the RuleTest has no path annotation (internal.config.kubernetes.io/path), so its inputs, config and workerConfig cannot be looked up among the items"
	if !strings.Contains(res, "info: RuleTest no-path: 3 of 3 expectations passed") || !strings.Contains(res, note) || strings.Contains(res, "error:") {
		t.Errorf("results, want the suite passing, the note %q and no error:\n%s", note, res)
	}
}
