package fn

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// runModeTest runs mode test over the vendors' rules, the cluster export
// and the GPU group with one RuleTest among them, as kpt hands a package
// over: the RuleTest is one more item.
func runModeTest(t *testing.T, suite string) (testkit.List, int) {
	t.Helper()
	var fc yaml.Node
	if err := yaml.Unmarshal([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fc}\ndata: {mode: test, enableTaints: \"true\"}\n"), &fc); err != nil {
		t.Fatal(err)
	}
	paths := []string{"../testdata/cluster-export/rules", "../testdata/cluster-export/snapshot.yaml", "../testdata/ruletest/groups", suite}
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
	if len(errs) != 9 {
		t.Errorf("%d error results, want the 9 failed expectations", len(errs))
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
