package ruletest

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
)

// got is a render of two nodes, one group and two findings.
func got() *Got {
	return &Got{
		Nodes: []labelview.Node{
			labelview.NewNode("a", map[string]string{"x/l": "1"}, map[string]string{"x/ann": "v"}, nil, map[string]string{"x/res": "2"}),
			labelview.NewNode("b", nil, nil, nil, nil),
		},
		Groups: map[string][]string{"ns/g": {"a"}},
		Findings: diag.List{
			{Severity: diag.Warning, Check: "matches-no-node", Object: diag.ObjectRef{Kind: "NodeFeatureRule", Name: "r"}, Pos: diag.Position{File: "rules.yaml", Line: 4}},
			{Severity: diag.Error, Check: "rule-failed", Object: diag.ObjectRef{Kind: "NodeFeatureRule", Name: "r"}, Message: "boom", Pos: diag.Position{File: "rules.yaml", Line: 9}},
		},
		Explain: func(node, label string) string { return "tree of " + label + " on " + node },
	}
}

// TestCheckNamesLineKeyExpectedAndGot: each expectation is one case at
// its line; a failure names the node, the key, the expected and the got
// value, and an absent label carries its rule's explain tree.
func TestCheckNamesLineKeyExpectedAndGot(t *testing.T) {
	tests := []struct {
		name, suite string
		failure     string
		detail      string
	}{
		{"label-holds", "nodes:\n  - node: a\n    labels: {x/l: \"1\"}\n", "", ""},
		{"label-wrong-value", "nodes:\n  - node: a\n    labels: {x/l: \"2\"}\n", `node a: label x/l: expected "2", got "1"`, ""},
		{"label-absent-explained", "nodes:\n  - node: b\n    labels: {x/l: \"1\"}\n", `node b: label x/l: expected "1", got absent`, "tree of x/l on b"},
		{"unprefixed-label-did-you-mean", "nodes:\n  - node: a\n    labels: {l: \"1\"}\n", `node a: label l: expected "1", got absent (did you mean x/l? nfd-master writes a name without a prefix under one)`, "tree of l on a"},
		{"unprefixed-annotation-did-you-mean", "nodes:\n  - node: a\n    annotations: {ann: v}\n", `node a: annotation ann: expected "v", got absent (did you mean x/ann? nfd-master writes a name without a prefix under one)`, ""},
		{"unprefixed-absent-label-set-with-a-prefix", "nodes:\n  - node: a\n    absentLabels: [l]\n", `node a: label l: expected absent, got "1" as x/l: nfd-master writes a name without a prefix under one; write the full name`, ""},
		{"unprefixed-absent-label-holds", "nodes:\n  - node: b\n    absentLabels: [l]\n", "", ""},
		{"absent-label-present", "nodes:\n  - node: a\n    absentLabels: [x/l]\n", `node a: label x/l: expected absent, got "1"`, ""},
		{"annotation-holds", "nodes:\n  - node: a\n    annotations: {x/ann: v}\n", "", ""},
		{"extended-resource-wrong", "nodes:\n  - node: a\n    extendedResources: {x/res: \"3\"}\n", `node a: extended resource x/res: expected "3", got "2"`, ""},
		{"taint-absent", "nodes:\n  - node: a\n    taints: [{key: k, value: v, effect: NoSchedule}]\n", "node a: taint k: expected k=v:NoSchedule, got absent", ""},
		{"unknown-node", "nodes:\n  - node: c\n", "node c: not among the rendered nodes (rendered: a, b)", ""},
		{"group-exact", "groups:\n  - {group: ns/g, members: [a]}\n", "", ""},
		{"group-extra-member", "groups:\n  - {group: ns/g, members: [a, b]}\n", "group ns/g: members: expected [a, b], got [a]", ""},
		{"finding-by-id-and-object", "findings:\n  - {check: NFD020, object: NodeFeatureRule/r}\n", "", ""},
		{"finding-by-name-missing", "findings:\n  - {check: label-conflict}\n", "finding NFD021 (label-conflict): expected, got not reported", ""},
		{"finding-severity-differs", "findings:\n  - {check: NFD020, object: NodeFeatureRule/r, severity: error}\n",
			"finding NFD020 (matches-no-node) on NodeFeatureRule/r: expected severity error, got warning on NodeFeatureRule/r at rules.yaml:4", ""},
		{"finding-message-differs", "findings:\n  - {check: NFD027, message: bang}\n",
			`finding NFD027 (rule-failed): expected a message containing "bang", got "boom" on NodeFeatureRule/r at rules.yaml:9`, ""},
		{"finding-unknown-check", "findings:\n  - {check: NFD999}\n", "finding NFD999: no such check (docs/checks.md lists them)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "apiVersion: nfd-fn.dev/v1alpha1\nkind: RuleTest\nmetadata: {name: s}\nspec:\n  inputs: [.]\n  expect:\n    " +
				strings.ReplaceAll(strings.TrimSuffix(tt.suite, "\n"), "\n", "\n    ") + "\n"
			suites, err := Parse([]byte(text), "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			cases := Check(suites[0], got())
			// Cases come in line order: the inputs' (line 5), then the
			// expectation's (line 7 on).
			if len(cases) != 2 {
				t.Fatalf("%d cases, want the expectation's and the inputs': %+v", len(cases), cases)
			}
			c := cases[1]
			if c.Failure != tt.failure || c.Detail != tt.detail || c.File != "t.yaml" || c.Line < 7 {
				t.Errorf("case %+v, want failure %q detail %q at t.yaml:7 or after", c, tt.failure, tt.detail)
			}
		})
	}
}

// TestCheckFailsOnUnexpectedErrorsAndWithOnlyWarnings: an error nobody
// expects fails the suite at the line of its inputs; with only: true a
// warning does too, unless it is listed.
func TestCheckFailsOnUnexpectedErrorsAndWithOnlyWarnings(t *testing.T) {
	head := "apiVersion: nfd-fn.dev/v1alpha1\nkind: RuleTest\nmetadata: {name: s}\nspec:\n  inputs: [.]\n"
	for name, tt := range map[string]struct {
		expect string
		want   string
	}{
		"error-unexpected":        {"", "inputs: 1 finding not expected"},
		"error-expected":          {"  expect:\n    findings: [{check: NFD027}]\n", ""},
		"only-and-a-warning":      {"  expect:\n    findings: [{check: NFD027, only: true}]\n", "inputs: 1 finding not expected"},
		"only-with-both-expected": {"  expect:\n    findings: [{check: NFD027, only: true}, {check: NFD020}]\n", ""},
	} {
		t.Run(name, func(t *testing.T) {
			suites, err := Parse([]byte(head+tt.expect), "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			cases := Check(suites[0], got())
			var c *Case
			for i := range cases {
				if strings.HasPrefix(cases[i].Name, "no unexpected") {
					c = &cases[i]
				}
			}
			if c == nil || c.Failure != tt.want || c.Line != 5 {
				t.Errorf("unexpected-findings case %+v, want failure %q at line 5", c, tt.want)
			}
		})
	}
}

// TestSnapshotDiffIsPerNode: a snapshot that differs lists, node by node,
// what it holds (-) and what the render gives (+).
func TestSnapshotDiffIsPerNode(t *testing.T) {
	s := &Suite{File: "t.yaml", Snapshot: "s.json", SnapshotLine: 9}
	g := got()
	text, err := Snapshot(g.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	if c := CheckSnapshot(s, text, g.Nodes); c.Failed() {
		t.Errorf("a snapshot of the render fails: %+v", c)
	}
	changed := []labelview.Node{labelview.NewNode("a", map[string]string{"x/l": "9"}, map[string]string{"x/ann": "v"}, nil, map[string]string{"x/res": "2"}),
		labelview.NewNode("c", nil, nil, nil, nil)}
	c := CheckSnapshot(s, text, changed)
	want := "node a:\n  - label x/l=\"1\"\n  + label x/l=\"9\"\nnode b:\n  - the whole node (no longer rendered)\nnode c:\n  + the whole node (new)"
	if c.Line != 9 || c.Failure != "snapshot s.json: the render differs on 3 nodes (nfd-fn test --update accepts the new answer)" || c.Detail != want {
		t.Errorf("case %+v\nwant detail:\n%s", c, want)
	}
	if c := CheckSnapshot(s, nil, g.Nodes); !strings.Contains(c.Failure, "no such file") {
		t.Errorf("a missing snapshot: %+v", c)
	}
}
