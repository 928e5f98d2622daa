package master

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

func TestNodeFeaturesAttachByTheNodeNameLabelNotTheirName(t *testing.T) {
	set := readSet(t,
		nodeFeature("elsewhere", "lost", "", "{features: {}}"),
		nodeFeature("elsewhere", "x", "a", "{features: "+hostFeatures("a")+"}"),
		workerFeature("b", hostFeatures("b")),
	)
	p := Prepare(set, DefaultOptions())
	if got, want := p.NodeNames(), []string{"a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("NodeNames() = %v, want %v", got, want)
	}
	for node, want := range map[string]bool{"a": true, "b": true, "x": false, "lost": false} {
		if got := p.HasNode(node); got != want {
			t.Errorf("HasNode(%q) = %v, want %v", node, got, want)
		}
	}
	f := renderAll(p)
	want := diag.List{{Severity: diag.Warning, Check: "no-node-name",
		Object: diag.ObjectRef{Kind: "NodeFeature", Namespace: "elsewhere", Name: "lost"}, Field: "metadata.labels",
		Pos:     diag.Position{File: "in.yaml", Index: 0, Line: 4, Column: 3},
		Message: "NodeFeature has no nfd.node.kubernetes.io/node-name label, so nfd-master attaches it to no node"}}
	if !reflect.DeepEqual(f.Diagnostics, want) {
		t.Errorf("Diagnostics =\n%#v\nwant\n%#v", f.Diagnostics, want)
	}
	if got := nodeResult(t, f, "a").Features.Attributes["system.name"].Elements["nodename"]; got != "a" {
		t.Errorf("node a got the features of another NodeFeature: nodename %q", got)
	}
}

func TestRejectedNodeFeatureIsNotAttached(t *testing.T) {
	s := &objects.Set{StrictFieldValidation: true}
	ds := testkit.ReadText(s, []byte(nodeFeature(DefaultNamespace, "a", "a", "{features: {}, labelz: {x: y}}")), "in.yaml", false)
	if len(ds) != 1 || ds[0].Check != "unknown-field" {
		t.Fatalf("want one unknown-field diagnostic, got %v", lines(ds))
	}
	p := Prepare(s, DefaultOptions())
	if len(p.NodeNames()) != 0 || p.HasNode("a") {
		t.Errorf("a rejected NodeFeature was attached: nodes %v", p.NodeNames())
	}
}

// TestDuplicatesAreErrorsAndTheLastIsUsed checks that objects defined
// twice are errors naming both places, and that the render shows what the
// cluster holds after applying the input in order: the last of each.
func TestDuplicatesAreErrorsAndTheLastIsUsed(t *testing.T) {
	s := &objects.Set{}
	var ds diag.List
	ds = append(ds, testkit.ReadText(s, []byte(kubeNode("a", "labels: {team: first}", "", "")), "f1.yaml", false)...)
	ds = append(ds, testkit.ReadText(s, []byte(kubeNode("a", "labels: {team: second}", "", "")+"---\n"+kubeNode("a", "labels: {team: third}", "", "")), "f2.yaml", false)...)
	ds = append(ds, testkit.ReadText(s, []byte(ruleObject("r", "  - {name: old, labels: {old: \"1\"}}\n")), "r1.yaml", false)...)
	ds = append(ds, testkit.ReadText(s, []byte(ruleObject("r", "  - {name: new, labels: {new: \"1\"}}\n")), "r2.yaml", false)...)
	var msgs []string
	for _, d := range ds {
		if d.Check != "duplicate-object" || d.Severity != diag.Error {
			t.Errorf("unexpected diagnostic %v", d)
		}
		msgs = append(msgs, d.Pos.File+": "+d.Message)
	}
	want := []string{
		"f2.yaml: Node a is defined twice, at f1.yaml:1 and at f2.yaml:1: applied in that order the cluster keeps only the last, so nfd-fn uses this one",
		"f2.yaml: Node a is defined twice, at f2.yaml:1 and at f2.yaml:5: applied in that order the cluster keeps only the last, so nfd-fn uses this one",
		"r2.yaml: NodeFeatureRule r is defined twice, at r1.yaml:1 and at r2.yaml:1: applied in that order the cluster keeps only the last, so nfd-fn uses this one",
	}
	if !reflect.DeepEqual(msgs, want) {
		t.Errorf("diagnostics =\n%q\nwant\n%q", msgs, want)
	}
	f := renderSet(s, DefaultOptions())
	if len(f.Diagnostics) != 0 {
		t.Errorf("the pipeline repeats the duplicates: %v", lines(f.Diagnostics))
	}
	wantLabels := map[string]string{"team": "third", "feature.node.kubernetes.io/new": "1"}
	if got := f.Nodes[0].State.Labels; !reflect.DeepEqual(got, wantLabels) {
		t.Errorf("labels = %v, want %v", got, wantLabels)
	}
}

func TestNodeNamesAreSortedAndIncludeNodeOnlyNodes(t *testing.T) {
	set := readSet(t,
		workerFeature("c", hostFeatures("c")),
		kubeNode("d", "labels: {kubernetes.io/hostname: d}", "", ""),
		workerFeature("a", hostFeatures("a")),
		kubeNode("b", "labels: {kubernetes.io/hostname: b}", "", ""),
		kubeNode("a", "", "", ""),
	)
	f := renderSet(set, DefaultOptions())
	if got, want := nodeNames(f), []string{"a", "b", "c", "d"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("nodes = %v, want %v", got, want)
	}
	b := nodeResult(t, f, "b")
	if want := map[string]string{"kubernetes.io/hostname": "b"}; !reflect.DeepEqual(b.State.Labels, want) {
		t.Errorf("node-only node b: labels %v, want %v", b.State.Labels, want)
	}
	if b.Features == nil || len(b.Features.Attributes)+len(b.Features.Flags)+len(b.Features.Instances) != 0 {
		t.Errorf("node-only node b has features %+v, want none", b.Features)
	}
}

func TestNodeFeaturesMergeInNFDsOrder(t *testing.T) {
	nf := func(ns, name, value string, extra string) string {
		return nodeFeature(ns, name, "a", "{features: {"+
			"attributes: {x.y: {elements: {e: "+value+extra+"}}}, "+
			"flags: {f.f: {elements: {"+value+": {}}}}, "+
			"instances: {i.i: {elements: [{attributes: {id: "+value+"}}]}}}, "+
			"labels: {l: "+value+", "+value+": \"yes\"}}")
	}
	docs := []string{
		nf("zzz", "a", "zzz-a", ""),
		nf("aaa", "b", "aaa-b", ", only-b: \"1\""),
		nf(DefaultNamespace, "z", "nfd-z", ", only-nfd: \"1\""),
		nf("other", "a", "other-a", ""),
		nf(DefaultNamespace, "a", "nfd-a", ""),
	}
	order := []string{"nfd-a", "nfd-z", "other-a", "zzz-a", "aaa-b"}
	wantFeatures := &api.Features{
		Attributes: map[string]api.AttributeFeatureSet{"x.y": {Elements: map[string]string{"e": "aaa-b", "only-b": "1", "only-nfd": "1"}}},
		Flags:      map[string]api.FlagFeatureSet{"f.f": {Elements: map[string]api.Nil{}}},
		Instances:  map[string]api.InstanceFeatureSet{"i.i": {}},
	}
	for _, v := range order {
		wantFeatures.Flags["f.f"].Elements[v] = api.Nil{}
		is := wantFeatures.Instances["i.i"]
		is.Elements = append(is.Elements, api.InstanceFeature{Attributes: map[string]string{"id": v}})
		wantFeatures.Instances["i.i"] = is
	}
	tests := []struct {
		name       string
		opts       func(*Options)
		wantLabels map[string]string
	}{
		{
			name:       "later-object-wins-per-label",
			opts:       func(*Options) {},
			wantLabels: map[string]string{"l": "aaa-b", "nfd-a": "yes", "nfd-z": "yes", "other-a": "yes", "zzz-a": "yes", "aaa-b": "yes"},
		},
		{
			name:       "deny-node-feature-labels-keeps-only-the-workers-own",
			opts:       func(o *Options) { o.DenyNodeFeatureLabels = true },
			wantLabels: map[string]string{"l": "nfd-a", "nfd-a": "yes"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			tc.opts(&opts)
			f := renderSet(readSet(t, docs...), opts)
			a := nodeResult(t, f, "a")
			if !reflect.DeepEqual(a.Features, wantFeatures) {
				t.Errorf("merged features =\n%+v\nwant\n%+v", a.Features, wantFeatures)
			}
			if got := featureLabels(a.State.Labels); !reflect.DeepEqual(got, tc.wantLabels) {
				t.Errorf("labels = %v, want %v", got, tc.wantLabels)
			}
		})
	}
}

func TestMergeOrderFollowsTheConfiguredNamespace(t *testing.T) {
	docs := []string{
		nodeFeature("aaa", "a", "a", "{features: {attributes: {x.y: {elements: {e: aaa}}}}}"),
		nodeFeature("custom", "a", "a", "{features: {attributes: {x.y: {elements: {e: custom}}}}}"),
	}
	tests := []struct {
		namespace string
		want      string
	}{
		// Same name: by namespace, so custom comes last and wins.
		{DefaultNamespace, "custom"},
		// custom is NFD's namespace: it merges first and aaa wins.
		{"custom", "aaa"},
	}
	for _, tc := range tests {
		t.Run(tc.namespace, func(t *testing.T) {
			opts := DefaultOptions()
			opts.Namespace = tc.namespace
			a := nodeResult(t, renderSet(readSet(t, docs...), opts), "a")
			if got := a.Features.Attributes["x.y"].Elements["e"]; got != tc.want {
				t.Errorf("x.y.e = %q, want %q", got, tc.want)
			}
		})
	}
}

// The NodeFeatureRule below writes rule.matched (a label and a var) on
// every node; NodeFeatureGroups must not see it.
func groupFleet(t *testing.T, groups ...string) *Fleet {
	t.Helper()
	docs := []string{
		workerFeature("a", hostFeatures("a", "cpu.model: {elements: {vendor_id: Intel}}")),
		workerFeature("b", hostFeatures("b", "cpu.model: {elements: {vendor_id: AMD}}")),
		kubeNode("c", "", "", ""),
		ruleObject("r", "  - {name: mark, labels: {marked: \"true\"}, vars: {v: \"1\"}}\n"),
	}
	return renderSet(readSet(t, append(docs, groups...)...), groupsOn())
}

func TestGroupMembershipIsComputedOnNodeFeaturesNotRuleOutput(t *testing.T) {
	f := groupFleet(t,
		groupObject("by-rule-label", "  - name: g\n    matchFeatures: [{feature: rule.matched, matchExpressions: {marked: {op: In, value: [\"true\"]}}}]\n"),
		groupObject("by-rule-var", "  - name: g\n    matchFeatures: [{feature: rule.matched, matchExpressions: {v: {op: Exists}}}]\n"),
		groupObject("intel", "  - name: g\n    matchFeatures: [{feature: cpu.model, matchExpressions: {vendor_id: {op: In, value: [Intel]}}}]\n"),
		groupObject("any-rule", "  - name: amd\n    matchFeatures: [{feature: cpu.model, matchExpressions: {vendor_id: {op: In, value: [AMD]}}}]\n"+
			"  - name: intel\n    matchFeatures: [{feature: cpu.model, matchExpressions: {vendor_id: {op: In, value: [Intel]}}}]\n"),
		groupObject("everything", "  - {name: g}\n"),
	)
	want := map[string][]string{
		"by-rule-label": {},
		"by-rule-var":   {},
		"intel":         {"a"},
		"any-rule":      {"a", "b"},
		// c has a Node object and no NodeFeature: never a member.
		"everything": {"a", "b"},
	}
	if got := members(f); !reflect.DeepEqual(got, want) {
		t.Errorf("members = %v, want %v", got, want)
	}
	var order []string
	for _, g := range f.Groups {
		order = append(order, g.Group.Obj.Metadata.Name)
	}
	if want := []string{"by-rule-label", "by-rule-var", "intel", "any-rule", "everything"}; !reflect.DeepEqual(order, want) {
		t.Errorf("groups in order %v, want input order %v", order, want)
	}
	// The rules did run on the nodes, c included.
	for _, n := range []string{"a", "b", "c"} {
		if got := featureLabels(nodeResult(t, f, n).State.Labels)["marked"]; got != "true" {
			t.Errorf("node %s: rule label marked = %q, want true", n, got)
		}
	}
	if len(f.NodeDiagnostics) != 0 {
		t.Errorf("NodeDiagnostics = %v, want none", lines(f.NodeDiagnostics))
	}
}

func TestGroupRulesSeeVarsOfEarlierRulesOfTheSameGroupOnly(t *testing.T) {
	// "use" fails when it sees v=abc (not a number); whether it fails tells
	// whether the var was visible.
	set := "  - name: set\n    vars: {v: abc}\n    matchFeatures: [{feature: system.name, matchExpressions: {nodename: {op: Exists}}}]\n"
	use := "  - name: use\n    matchFeatures: [{feature: rule.matched, matchExpressions: {v: {op: Gt, value: [\"1\"]}}}]\n"
	tests := []struct {
		name    string
		group   string
		want    []string
		members []string
	}{
		{
			name:    "earlier-rule-var-is-visible",
			group:   groupObject("g", set+use),
			members: []string{"a", "b"},
			want: []string{`error group-rule-failed NodeFeatureGroup node-feature-discovery/g spec.featureGroupRules[1].matchFeatures[0]: ` +
				`2 nodes (a, b): group rule "use" failed: not a number "abc"; the node is not added by this rule [a b]`},
		},
		{
			name:    "later-rule-var-is-not-visible",
			group:   groupObject("g", use+set),
			want:    []string{},
			members: []string{"a", "b"},
		},
		{
			// The NodeFeatureRule's var v=1 would not fail; only the
			// group's own matters, and here there is none.
			name:    "node-feature-rule-var-is-not-visible",
			group:   groupObject("g", use),
			want:    []string{},
			members: []string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := groupFleet(t, tc.group)
			if got := lines(f.NodeDiagnostics); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("NodeDiagnostics =\n%q\nwant\n%q", got, tc.want)
			}
			if got := members(f)["g"]; !reflect.DeepEqual(got, tc.members) {
				t.Errorf("members = %v, want %v", got, tc.members)
			}
		})
	}
}

func TestGroupVarsDoNotLeakIntoOtherGroupsOrNodes(t *testing.T) {
	f := groupFleet(t,
		groupObject("first", "  - {name: set, vars: {leak: \"yes\"}}\n"),
		groupObject("second", "  - name: g\n    matchFeatures: [{feature: rule.matched, matchExpressions: {leak: {op: Exists}}}]\n"),
	)
	if got := members(f)["second"]; !reflect.DeepEqual(got, []string{}) {
		t.Errorf("second group members = %v, want none", got)
	}
	if _, ok := nodeResult(t, f, "a").Features.Attributes["rule.matched"]; ok {
		t.Errorf("rule.matched leaked into the node's merged features: %v", nodeResult(t, f, "a").Features.Attributes["rule.matched"])
	}
}

func TestGroupMemberIsTheSystemNameNodename(t *testing.T) {
	set := readSet(t,
		workerFeature("a", hostFeatures("host-a")),
		workerFeature("b", "{attributes: {cpu.model: {elements: {vendor_id: AMD}}}}"),
		workerFeature("c", "{flags: {cpu.cpuid: {elements: {AVX: {}}}}}"),
		workerFeature("d", hostFeatures("host-a")),
		groupObject("all", "  - {name: g}\n"),
	)
	f := renderSet(set, groupsOn())
	if got, want := members(f)["all"], []string{"host-a", ""}; !reflect.DeepEqual(got, want) {
		t.Errorf("members = %q, want %q", got, want)
	}
	want := []string{`warning group-member-unnamed NodeFeatureGroup node-feature-discovery/all status.nodes: 2 nodes (b, c): ` +
		`the node matches, but its NodeFeatures have no system.name nodename element, so nfd-master lists it with an empty name (a known NFD quirk) [b c]`}
	if got := lines(f.NodeDiagnostics); !reflect.DeepEqual(got, want) {
		t.Errorf("NodeDiagnostics =\n%q\nwant\n%q", got, want)
	}
}

func TestGroupsAreNotEvaluatedWhenTheGroupAPIIsOff(t *testing.T) {
	set := readSet(t, workerFeature("a", hostFeatures("a")), groupObject("all", "  - {name: g}\n"))
	f := renderSet(set, DefaultOptions())
	if len(f.Groups) != 0 {
		t.Errorf("Groups = %+v, want none", f.Groups)
	}
}

func TestRejectedGroupIsSkipped(t *testing.T) {
	s := readSet(t, workerFeature("a", hostFeatures("a")), groupObject("good", "  - {name: g}\n"))
	s.StrictFieldValidation = true // the API server refuses the group
	if ds := testkit.ReadText(s, []byte(groupObject("bad", "  - {name: g, labels: {x: y}}\n")), "bad.yaml", false); len(ds) != 1 {
		t.Fatalf("want the group rule's labels refused, got %v", lines(ds))
	}
	f := renderSet(s, groupsOn())
	if got, want := members(f), map[string][]string{"good": {"a"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("members = %v, want %v", got, want)
	}
}

func TestStaticRuleFailureIsReportedOnceNamingTheNodesItHit(t *testing.T) {
	set := readSet(t,
		workerFeature("a", hostFeatures("a", "kernel.version: {elements: {major: \"6\"}}")),
		workerFeature("b", hostFeatures("b", "kernel.version: {elements: {major: \"5\"}}")),
		workerFeature("c", hostFeatures("c", "kernel.version: {elements: {minor: \"1\"}}")),
		ruleObject("bad", "  - name: cmp\n    labels: {x: \"1\"}\n"+
			"    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Gt}}}]\n"+
			"  - name: never\n    labels: {\"y\": \"1\"}\n"+
			"    matchFeatures: [{feature: no.such}, {feature: kernel.version, matchExpressions: {major: {op: Bogus}}}]\n"),
	)
	f := renderSet(set, DefaultOptions())
	// The engine owns the compile messages and their severities; what the
	// pipeline adds is the nodes.
	type row struct{ check, field, suffix, nodes string }
	var got []row
	for _, d := range f.Diagnostics {
		r := row{check: d.Check, field: d.Field, nodes: fmt.Sprint(d.Nodes)}
		if i := strings.Index(d.Message, " (hit on"); i >= 0 {
			r.suffix = d.Message[i:]
		}
		got = append(got, r)
	}
	want := []row{
		{"invalid-value", "spec.rules[0].matchFeatures[0].matchExpressions.major.value", " (hit on 2 nodes (a, b))", "[a b]"},
		{"invalid-op", "spec.rules[1].matchFeatures[1].matchExpressions.major.op", "", "[]"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Diagnostics =\n%q\nwant\n%q", lines(f.Diagnostics), want)
	}
	if len(f.NodeDiagnostics) != 0 {
		t.Errorf("the static failure is repeated per node: %q", lines(f.NodeDiagnostics))
	}
	// The per-node results still carry the failure, for explain and lint.
	if errs := nodeResult(t, f, "a").RuleErrors; len(errs) != 1 || !errs[0].IsStatic() {
		t.Errorf("node a RuleErrors = %v, want the one static failure", errs)
	}
}

func TestPerNodeProblemsAreFoldedAndSorted(t *testing.T) {
	kv := func(node, major string) string {
		return workerFeature(node, hostFeatures(node, "kernel.version: {elements: {major: \""+major+"\"}}"))
	}
	set := readSet(t,
		kv("d", "6"), kv("a", "x"), kv("c", "x"), kv("b", "x"),
		ruleObject("r1", "  - name: num\n    labels: {big: \"true\"}\n"+
			"    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Gt, value: [\"5\"]}}}]\n"+
			"  - {name: dyn, labels: {dyn: \"@kernel.version.missing\"}}\n"),
		ruleObject("r0", "  - {name: deny, labels: {kubernetes.io/bad: x}}\n"),
	)
	f := renderSet(set, DefaultOptions())
	want := []string{
		`warning output-dropped NodeFeatureRule r0 spec.rules[0].labels["kubernetes.io/bad"]: ` +
			`4 nodes (a, b, c, d): label "kubernetes.io/bad" dropped: namespace "kubernetes.io" is not allowed (see denyLabelNs and extraLabelNs) [a b c d]`,
		`error rule-failed NodeFeatureRule r1 spec.rules[0].matchFeatures[0]: ` +
			`3 nodes (a, b, c): rule "num" failed: not a number "x"; nfd-master skips the rule on this node [a b c]`,
		`error output-dropped NodeFeatureRule r1 spec.rules[1].labels["dyn"]: ` +
			`4 nodes (a, b, c, d): label "feature.node.kubernetes.io/dyn" dropped: element missing not found on feature kernel.version [a b c d]`,
	}
	if got := lines(f.NodeDiagnostics); !reflect.DeepEqual(got, want) {
		t.Errorf("NodeDiagnostics =\n%q\nwant\n%q", got, want)
	}
	if got := featureLabels(nodeResult(t, f, "d").State.Labels); !reflect.DeepEqual(got, map[string]string{"big": "true"}) {
		t.Errorf("node d labels = %v, want big=true only", got)
	}
	if len(f.Diagnostics) != 0 {
		t.Errorf("Diagnostics = %q, want none", lines(f.Diagnostics))
	}
}

// fleetInput has rules that feed rule.matched (labels and vars) and match
// on it, a node with one NodeFeature (used without copying) and one with
// two (merged), and a group.
func fleetInput() []string {
	return []string{
		workerFeature("a", hostFeatures("a", "kernel.version: {elements: {major: \"6\"}}")),
		workerFeature("b", hostFeatures("b")),
		nodeFeature("extra", "b-extra", "b", "{features: {attributes: {kernel.version: {elements: {major: \"5\"}}}}, labels: {extra: \"1\"}}"),
		kubeNode("b", "labels: {feature.node.kubernetes.io/stale: \"1\"}, annotations: {nfd.node.kubernetes.io/feature-labels: stale}", "", ""),
		ruleObject("a-first", "  - {name: zero, vars: {zero: \"1\"}}\n"+
			"  - name: first\n    labels: {first: \"true\"}\n"+
			"    matchFeatures: [{feature: rule.matched, matchExpressions: {second: {op: DoesNotExist}}}]\n"),
		ruleObject("b-second", "  - name: second\n    labels: {second: \"true\"}\n    vars: {kv: \"@kernel.version.major\"}\n"+
			"    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]\n"+
			"  - name: third\n    labelsTemplate: \"{{ range .rule.matched }}seen-{{ .Name }}=yes\\n{{ end }}\"\n"+
			"    matchFeatures: [{feature: rule.matched, matchExpressions: {first: {op: In, value: [\"true\"]}}}]\n"),
		groupObject("g", "  - name: g\n    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: In, value: [\"6\"]}}}]\n"),
	}
}

func TestRenderingTwiceFromTheSameSetGivesTheSameFleet(t *testing.T) {
	set := readSet(t, fleetInput()...)
	pristine := readSet(t, fleetInput()...)
	p := Prepare(set, groupsOn())
	first := renderAll(p)
	second := renderAll(p)
	third := renderSet(set, groupsOn())
	if !reflect.DeepEqual(first, second) || !reflect.DeepEqual(first, third) {
		t.Errorf("renders differ:\n%+v\n%+v\n%+v", first.Nodes, second.Nodes, third.Nodes)
	}
	for i := range set.Features {
		if !reflect.DeepEqual(set.Features[i].Obj, pristine.Features[i].Obj) {
			t.Errorf("rendering changed NodeFeature %s:\n%+v\nwas\n%+v", set.Features[i].Obj.Metadata.Name,
				set.Features[i].Obj.Spec.Features, pristine.Features[i].Obj.Spec.Features)
		}
	}
	a := nodeResult(t, first, "a")
	// The template sees only the elements its term matched: first, not zero.
	wantA := map[string]string{"first": "true", "second": "true", "seen-first": "yes"}
	if got := featureLabels(a.State.Labels); !reflect.DeepEqual(got, wantA) {
		t.Errorf("node a labels = %v, want %v", got, wantA)
	}
	if _, ok := a.Features.Attributes["rule.matched"]; ok {
		t.Errorf("NodeResult.Features holds the rules' rule.matched: %v", a.Features.Attributes["rule.matched"])
	}
	b := nodeResult(t, first, "b")
	wantB := map[string]string{"extra": "1", "first": "true", "second": "true", "seen-first": "yes"}
	if got := featureLabels(b.State.Labels); !reflect.DeepEqual(got, wantB) {
		t.Errorf("node b labels = %v, want %v (stale removed)", got, wantB)
	}
	if got := members(first)["g"]; !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("group members = %v, want [a]", got)
	}
}

func TestExplainUnknownOrNodeOnlyNodeIsNotOK(t *testing.T) {
	p := Prepare(readSet(t, fleetInput()...), groupsOn())
	for _, node := range []string{"nope", ""} {
		if _, traces, ok := p.Explain(node); ok || traces != nil {
			t.Errorf("Explain(%q) ok=%v traces=%d, want not ok", node, ok, len(traces))
		}
	}
	p = Prepare(readSet(t, kubeNode("c", "", "", "")), DefaultOptions())
	if _, _, ok := p.Explain("c"); ok {
		t.Error("Explain of a node with only a Node object is ok, want not ok")
	}
}

func TestExplainTracesEveryRuleAndNamesLabelOrigins(t *testing.T) {
	p := Prepare(readSet(t, fleetInput()...), groupsOn())
	res, traces, ok := p.Explain("b")
	if !ok {
		t.Fatal("Explain(b) not ok")
	}
	var got []string
	for _, tr := range traces {
		got = append(got, tr.Source.Object.Name+"/"+tr.Source.RuleName+"="+map[bool]string{true: "matched", false: "not"}[tr.Matched])
	}
	want := []string{"a-first/zero=matched", "a-first/first=matched", "b-second/second=matched", "b-second/third=matched"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("traces = %v, want %v", got, want)
	}
	origins := map[string]string{}
	for k, o := range res.LabelOrigins {
		origins[k] = o.Object.String() + " " + o.Field
	}
	wantOrigins := map[string]string{
		"feature.node.kubernetes.io/extra":      "NodeFeature extra/b-extra spec.labels",
		"feature.node.kubernetes.io/first":      "NodeFeatureRule a-first spec.rules[1].labels",
		"feature.node.kubernetes.io/second":     "NodeFeatureRule b-second spec.rules[0].labels",
		"feature.node.kubernetes.io/seen-first": "NodeFeatureRule b-second spec.rules[1].labels",
	}
	if !reflect.DeepEqual(origins, wantOrigins) {
		t.Errorf("LabelOrigins = %v, want %v", origins, wantOrigins)
	}
}

// Explain must not leave the rules' rule.matched in the NodeFeature: the
// render, explain and nova steps of one run share the set.
func TestExplainDoesNotChangeLaterRenders(t *testing.T) {
	set := readSet(t, fleetInput()...)
	pristine := readSet(t, fleetInput()...)
	p := Prepare(set, groupsOn())
	before := renderAll(p)
	res, _, _ := p.Explain("a")
	if want := nodeResult(t, before, "a").State.Labels; !reflect.DeepEqual(res.State.Labels, want) {
		t.Errorf("Explain(a) labels = %v, want the rendered %v", res.State.Labels, want)
	}
	after := renderAll(p)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("render after Explain differs: node a labels %v, was %v",
			nodeResult(t, after, "a").State.Labels, nodeResult(t, before, "a").State.Labels)
	}
	for i := range set.Features {
		if !reflect.DeepEqual(set.Features[i].Obj, pristine.Features[i].Obj) {
			t.Errorf("Explain changed NodeFeature %s: attributes %v", set.Features[i].Obj.Metadata.Name, set.Features[i].Obj.Spec.Features.Attributes)
		}
	}
}

// A rule that fails statically on a node is one compile diagnostic with
// "(hit on ...)"; the rule's other compile diagnostics (a missing name, a
// feature name warning) did not make it fail and should not say so.
func TestStaticFailureNamesNodesOnlyOnTheDiagnosticThatCausedIt(t *testing.T) {
	set := readSet(t,
		workerFeature("a", hostFeatures("a", "kernel.version: {elements: {major: \"6\"}}")),
		ruleObject("bad", "  - labels: {x: \"1\"}\n"+
			"    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Bogus}}}, {feature: nodot}]\n"),
	)
	f := renderSet(set, DefaultOptions())
	hit := map[string]bool{}
	for _, d := range f.Diagnostics {
		hit[d.Check] = len(d.Nodes) > 0 || strings.Contains(d.Message, "(hit on")
	}
	want := map[string]bool{"rule-name": false, "invalid-op": true, "feature-name": false}
	if !reflect.DeepEqual(hit, want) {
		t.Errorf("diagnostics naming nodes: %v, want %v\n%q", hit, want, lines(f.Diagnostics))
	}
}

// SARIF takes each rule's description from diag.Checks; a check missing
// there is listed with its bare id.
func TestEveryCheckTheMasterReportsIsInTheCatalogue(t *testing.T) {
	s := readSet(t,
		nodeFeature("x", "lost", "", "{features: {}}"),
		workerFeature("a", "{attributes: {kernel.version: {elements: {major: x}}}}"),
		ruleObject("r", "  - {name: deny, labels: {kubernetes.io/bad: x}}\n"+
			"  - name: num\n    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Gt, value: [\"5\"]}}}]\n"),
		groupObject("g", "  - {name: g}\n"),
		kubeNode("n", "", "", ""),
	)
	f := renderSet(s, groupsOn())
	seen := map[string]bool{}
	for _, l := range []diag.List{f.Diagnostics, f.NodeDiagnostics} {
		for _, d := range l {
			seen[d.Check] = true
		}
	}
	for _, want := range []string{"no-node-name", "output-dropped", "rule-failed", "group-member-unnamed"} {
		if !seen[want] {
			t.Fatalf("test input does not produce check %q (got %v)", want, seen)
		}
	}
	var missing []string
	for c := range seen {
		if _, ok := diag.Checks[c]; !ok && c != "" {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("checks reported by pkg/master but missing from diag.Checks (SARIF shows them without a description): %v", missing)
	}
}

func TestStreamWithoutFeaturesLoadsSpecsPerNodeAndDropsFeatures(t *testing.T) {
	want := renderSet(readSet(t, fleetInput()...), groupsOn())
	for i := range want.Nodes {
		want.Nodes[i].Features = nil
	}
	lean := readSet(t, fleetInput()...)
	var loads atomic.Int32
	for i := range lean.Features {
		lean.Features[i].Obj.Spec = api.NodeFeatureSpec{}
		lean.Features[i].Lean = &objects.LeanNodeFeature{Names: lean.Features[i].Obj, Text: specFunc(func(map[string]bool) (*api.NodeFeatureSpec, error) {
			loads.Add(1)
			return &readSet(t, fleetInput()...).Features[i].Obj.Spec, nil
		})}
	}
	st := Prepare(lean, groupsOn()).Stream(StreamOptions{KeepNodes: true})
	st.Render(st.All(), nil)
	got := st.Finish()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lean render differs:\n%+v\nwant\n%+v", got.Nodes, want.Nodes)
	}
	if n := int(loads.Load()); n != len(lean.Features) {
		t.Errorf("specs loaded %d times, want once per NodeFeature (%d)", n, len(lean.Features))
	}
}

// TestStreamInStepsMatchesRender renders the fleet the way mode render
// writes it: some nodes first (those with Node objects), the rest later,
// some of them twice, keeping no node. The diagnostics and groups must be
// Render's, each node must reach the observers once, and emit must see
// the nodes in the order asked for with Render's results.
func TestStreamInStepsMatchesRender(t *testing.T) {
	want := renderSet(readSet(t, fleetInput()...), groupsOn())
	p := Prepare(readSet(t, fleetInput()...), groupsOn())
	st := p.Stream(StreamOptions{})
	observed := map[string]int{}
	st.Observe(func(n *NodeResult) { observed[n.Name]++ })
	all := st.All()
	if len(all) < 2 {
		t.Fatalf("test fleet has %d nodes, want 2 or more", len(all))
	}
	var order []string
	check := func(i int, res *NodeResult) {
		order = append(order, res.Name)
		if !reflect.DeepEqual(res.State, want.Nodes[i].State) {
			t.Errorf("node %s: state %+v, want %+v", res.Name, res.State, want.Nodes[i].State)
		}
	}
	first := []int{all[len(all)-1], all[0]}
	st.Render(first, check)
	st.Render(all, check)
	got := st.Finish()
	wantOrder := []string{want.Nodes[len(all)-1].Name, want.Nodes[0].Name}
	for i := range all {
		wantOrder = append(wantOrder, want.Nodes[i].Name)
	}
	if !reflect.DeepEqual(order, wantOrder) {
		t.Errorf("emitted %v, want %v", order, wantOrder)
	}
	for _, n := range want.Nodes {
		if observed[n.Name] != 1 {
			t.Errorf("node %s observed %d times, want once", n.Name, observed[n.Name])
		}
	}
	if len(got.Nodes) != 0 {
		t.Errorf("kept %d nodes without KeepNodes", len(got.Nodes))
	}
	if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || !reflect.DeepEqual(got.NodeDiagnostics, want.NodeDiagnostics) {
		t.Errorf("diagnostics differ:\n%v\n%v\nwant\n%v\n%v", got.Diagnostics, got.NodeDiagnostics, want.Diagnostics, want.NodeDiagnostics)
	}
	if !reflect.DeepEqual(got.Groups, want.Groups) {
		t.Errorf("groups %+v, want %+v", got.Groups, want.Groups)
	}
}

// TestStreamDecodesOnlyTheFeaturesRulesRead renders a lean fleet whose
// loader keeps only the features it is asked for: the render must equal
// one with every feature decoded, the loader must be asked for the
// features the rules and groups match on and not for the others, and a
// label naming another feature ("@domain.feature.element") must make the
// node render again with every feature.
func TestStreamDecodesOnlyTheFeaturesRulesRead(t *testing.T) {
	input := append(fleetInput(), ruleObject("c-dynamic", "  - name: dynamic\n    labels: {cpu-family: \"@cpu.model.family\"}\n"+
		"    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]\n"))
	input[0] = workerFeature("a", hostFeatures("a", `kernel.version: {elements: {major: "6"}}`,
		`cpu.model: {elements: {family: "6"}}`, `unread.feature: {elements: {x: "1"}}`))
	want := renderSet(readSet(t, input...), groupsOn())
	for i := range want.Nodes {
		want.Nodes[i].Features = nil
	}
	lean := readSet(t, input...)
	var mu sync.Mutex
	asked := map[string]bool{}
	fullLoads := 0
	for i := range lean.Features {
		lean.Features[i].Obj.Spec = api.NodeFeatureSpec{}
		lean.Features[i].Lean = &objects.LeanNodeFeature{Names: lean.Features[i].Obj, Text: specFunc(func(only map[string]bool) (*api.NodeFeatureSpec, error) {
			spec := readSet(t, input...).Features[i].Obj.Spec
			mu.Lock()
			defer mu.Unlock()
			if only == nil {
				fullLoads++
				return &spec, nil
			}
			for k := range only {
				asked[k] = true
			}
			for _, m := range []map[string]api.AttributeFeatureSet{spec.Features.Attributes} {
				for k := range m {
					if !only[k] {
						delete(m, k)
					}
				}
			}
			return &spec, nil
		})}
	}
	st := Prepare(lean, groupsOn()).Stream(StreamOptions{KeepNodes: true})
	st.Render(st.All(), nil)
	got := st.Finish()
	if !reflect.DeepEqual(got.Nodes, want.Nodes) || !reflect.DeepEqual(got.NodeDiagnostics, want.NodeDiagnostics) {
		t.Errorf("a render decoding only what the rules read differs:\n%+v\nwant\n%+v", got.Nodes, want.Nodes)
	}
	for _, f := range []string{"kernel.version", "rule.matched", "system.name"} {
		if !asked[f] {
			t.Errorf("the loader was not asked for %s (asked %v)", f, asked)
		}
	}
	if asked["unread.feature"] || asked["cpu.model"] {
		t.Errorf("the loader was asked for features no rule matches on: %v", asked)
	}
	if fullLoads == 0 {
		t.Errorf("the label naming cpu.model.family did not make any node render with every feature")
	}
	if nodeResult(t, got, "a").State.Labels["feature.node.kubernetes.io/cpu-family"] != "6" {
		t.Errorf("node a: the label naming cpu.model.family is %q, want 6", nodeResult(t, got, "a").State.Labels["feature.node.kubernetes.io/cpu-family"])
	}
}

// TestLeanNodeFeatureThatCannotBeReadAgainIsAnErrorNotAFault renders a
// fleet whose lean NodeFeatures can no longer be read (their input was
// closed): each node is rendered without that object's features, with an
// error naming the object, and nothing panics.
func TestLeanNodeFeatureThatCannotBeReadAgainIsAnErrorNotAFault(t *testing.T) {
	lean := readSet(t, fleetInput()...)
	closed := errors.New("the input was closed")
	for i := range lean.Features {
		lean.Features[i].Obj.Spec = api.NodeFeatureSpec{}
		lean.Features[i].Lean = &objects.LeanNodeFeature{Names: lean.Features[i].Obj, Text: specFunc(func(map[string]bool) (*api.NodeFeatureSpec, error) {
			return nil, closed
		})}
	}
	st := Prepare(lean, groupsOn()).Stream(StreamOptions{KeepNodes: true})
	st.Render(st.All(), nil)
	got := st.Finish()
	unread := map[string]bool{}
	for _, d := range got.NodeDiagnostics {
		if d.Check == "yaml" && d.Severity == diag.Error && strings.Contains(d.Message, closed.Error()) {
			unread[d.Object.Name] = true
		}
	}
	for _, o := range lean.Features {
		if !unread[o.Obj.Metadata.Name] {
			t.Errorf("no error for the unreadable %s; diagnostics: %v", objects.FeatureRef(o.Obj), got.NodeDiagnostics)
		}
	}
}

func TestGroupStatusIsKeptOnlyOutsideAKnownNamespace(t *testing.T) {
	for _, tc := range []struct {
		name         string
		known, allNs bool
		ns           string
		want         bool
	}{
		{"outside-known", true, false, "default", true},
		{"inside-known", true, false, "nfd", false},
		{"no-namespace", true, false, "", false},
		{"namespace-unknown", false, false, "default", false},
		{"all-namespaces", true, true, "default", false},
	} {
		o := Options{Namespace: "nfd", NamespaceKnown: tc.known, GroupStatusAllNamespaces: tc.allNs}
		if got := o.GroupStatusKept(tc.ns); got != tc.want {
			t.Errorf("%s: GroupStatusKept(%q) = %v, want %v", tc.name, tc.ns, got, tc.want)
		}
	}
}

// specFunc is a function as the text a lean NodeFeature's spec is loaded
// from (objects.SpecText), for a test to count or fail the loads.
type specFunc func(only map[string]bool) (*api.NodeFeatureSpec, error)

// LoadSpec calls f.
func (f specFunc) LoadSpec(only map[string]bool) (*api.NodeFeatureSpec, error) { return f(only) }
