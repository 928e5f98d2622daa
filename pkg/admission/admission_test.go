package admission

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

func parse(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

func schema(t *testing.T, minor int, kind string) *Schema {
	t.Helper()
	s, err := SchemaFor(release.Version{Minor: minor}, kind)
	if err != nil || s == nil {
		t.Fatalf("no %s schema for v0.%d: %v", kind, minor, err)
	}
	return s
}

const geRule = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: kernel-ge}
spec:
  rules:
  - name: k6
    labels: {kernel-ge6: "true"}
    matchFeatures:
    - feature: kernel.version
      matchExpressions:
        major: {op: Ge, value: ["6"], type: version}
`

// TestEveryMinorReleaseHasItsCRDs fails when a line of pkg/release's
// table has no CRD file here, or one without the three kinds.
func TestEveryMinorReleaseHasItsCRDs(t *testing.T) {
	for _, line := range release.Lines() {
		minor := line.Minor
		for _, kind := range []string{api.KindNodeFeature, api.KindNodeFeatureRule, api.KindNodeFeatureGroup} {
			schema(t, minor, kind)
		}
	}
}

func TestV017CRDRejectsGeOp(t *testing.T) {
	v := Check(schema(t, 17, api.KindNodeFeatureRule), parse(t, geRule))
	if len(v.Problems) != 1 {
		t.Fatalf("problems = %v", v.Problems)
	}
	p := v.Problems[0]
	if p.Field != "spec.rules[0].matchFeatures[0].matchExpressions.major.op" || p.Value != "Ge" ||
		!strings.HasPrefix(p.Detail, `Unsupported value: "Ge": supported values: "In", "NotIn"`) {
		t.Errorf("problem = %+v", p)
	}
}

func TestV017CRDPrunesTypeField(t *testing.T) {
	v := Check(schema(t, 17, api.KindNodeFeatureRule), parse(t, geRule))
	if want := "spec.rules[0].matchFeatures[0].matchExpressions.major.type"; len(v.Pruned) != 1 || v.Pruned[0] != want {
		t.Fatalf("pruned = %v, want [%s]", v.Pruned, want)
	}
	obj := parse(t, geRule)
	v = Check(schema(t, 17, api.KindNodeFeatureRule), obj)
	pruned := v.Prune(obj)
	if strings.Contains(encode(t, pruned), "type: version") || !strings.Contains(encode(t, obj), "type: version") {
		t.Errorf("Prune must drop the field from a copy only:\n%s", encode(t, pruned))
	}
}

func TestV018CRDAcceptsGeAndType(t *testing.T) {
	if v := Check(schema(t, 18, api.KindNodeFeatureRule), parse(t, geRule)); v.Rejected() || len(v.Pruned) > 0 {
		t.Errorf("v0.18 verdict = %+v", v)
	}
}

func TestEveryCRDRequiresRuleName(t *testing.T) {
	nameless := strings.Replace(geRule, "  - name: k6\n    labels", "  - labels", 1)
	for _, line := range release.Lines() {
		minor := line.Minor
		v := Check(schema(t, minor, api.KindNodeFeatureRule), parse(t, nameless))
		if !hasProblem(v, "spec.rules[0].name", "Required value") {
			t.Errorf("v0.%d: problems = %v", minor, v.Problems)
		}
	}
}

func TestWrongTypeIsRejected(t *testing.T) {
	obj := strings.Replace(geRule, `labels: {kernel-ge6: "true"}`, `labels: [a, b]`, 1)
	v := Check(schema(t, 19, api.KindNodeFeatureRule), parse(t, obj))
	if !hasProblem(v, "spec.rules[0].labels", `Invalid value: "array": spec.rules[0].labels in body must be of type object`) {
		t.Errorf("problems = %v", v.Problems)
	}
}

func TestV017CRDPrunesGroupVars(t *testing.T) {
	group := `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureGroup
metadata: {name: g, namespace: default}
spec:
  featureGroupRules:
  - name: r
    vars: {a: "1"}
    varsTemplate: "b=2"
    matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX: {op: Exists}}}]
`
	v := Check(schema(t, 17, api.KindNodeFeatureGroup), parse(t, group))
	if v.Rejected() || strings.Join(v.Pruned, ",") != "spec.featureGroupRules[0].vars,spec.featureGroupRules[0].varsTemplate" {
		t.Errorf("verdict = %+v", v)
	}
}

func TestAdmitRejectsWholeObjectNamingTheFirstReleaseThatAcceptsIt(t *testing.T) {
	set := readSet(t, geRule)
	rel, _ := release.Parse("v0.17.1")
	ds := Admit(set, rel, false)
	if !set.Rules[0].Rejected {
		t.Error("the rule is not rejected")
	}
	var msgs []string
	for _, d := range ds {
		msgs = append(msgs, string(d.Severity)+" "+d.Check+" "+d.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, `error admission-rejected the API server of NFD v0.17.1 refuses this NodeFeatureRule whole`) ||
		!strings.Contains(all, `Unsupported value: "Ge"`) || !strings.Contains(all, "NFD v0.18.0 is the first release that accepts it") {
		t.Errorf("diagnostics:\n%s", all)
	}
}

// TestAdmitPrunesAnObjectThatAlsoHoldsAYAML11Key: an object the API
// server stores with a key written as a YAML 1.1 boolean ("on", stored
// as "true") and a field an older CRD prunes is used pruned, as stored.
func TestAdmitPrunesAnObjectThatAlsoHoldsAYAML11Key(t *testing.T) {
	rule := strings.Replace(strings.Replace(geRule, "op: Ge", "op: Gt", 1), "labels: {kernel-ge6: \"true\"}", "labels: {on: \"x\"}", 1)
	rel, _ := release.Parse("v0.17.1")
	set := &objects.Set{}
	if ds := testkit.ReadText(set, []byte(rule), "in.yaml", false); len(ds) != 1 || !strings.Contains(ds[0].Message, "YAML 1.1") {
		t.Fatalf("want the one NFD002 on the key, got %v", ds)
	}
	Admit(set, rel, false)
	r := set.Rules[0].Obj.Spec.Rules[0]
	expr := (*r.MatchFeatures[0].MatchExpressions)["major"]
	if set.Rules[0].Rejected || expr.Type != "" || r.Labels["true"] != "x" {
		t.Errorf("rejected %v, type %q (want pruned), labels %v (want the stored key \"true\")", set.Rules[0].Rejected, expr.Type, r.Labels)
	}
}

func TestAdmitPrunesWithAWarningOrRejectsWhenStrict(t *testing.T) {
	gtRule := strings.Replace(geRule, "op: Ge", "op: Gt", 1)
	rel, _ := release.Parse("v0.17.1")
	set := readSet(t, gtRule)
	ds := Admit(set, rel, false)
	expr := (*set.Rules[0].Obj.Spec.Rules[0].MatchFeatures[0].MatchExpressions)["major"]
	if set.Rules[0].Rejected || expr.Type != "" || len(ds) != 1 || ds[0].Severity != diag.Warning || ds[0].Check != CheckPruned {
		t.Errorf("rejected %v, type %q, diagnostics %v", set.Rules[0].Rejected, expr.Type, ds)
	}
	set = readSet(t, gtRule)
	ds = Admit(set, rel, true)
	if !set.Rules[0].Rejected || len(ds) != 1 || ds[0].Severity != diag.Error {
		t.Errorf("strict: rejected %v, diagnostics %v", set.Rules[0].Rejected, ds)
	}
}

func TestDropCoveredKeepsTheRefusalOfTheWholeObject(t *testing.T) {
	ref := diag.ObjectRef{Kind: "NodeFeatureRule", Name: "r"}
	op := "spec.rules[1].matchFeatures[0].matchExpressions.a.op"
	ds := diag.List{
		{Severity: diag.Error, Check: CheckRejected, Object: ref, Field: "spec.rules[0].name", Message: "Required value"},
		{Severity: diag.Error, Check: "rule-name", Object: ref, Field: "spec.rules[0].name"},
		{Severity: diag.Error, Check: "invalid-op", Object: ref, Field: op, Suggestion: "In"},
		{Severity: diag.Error, Check: CheckRejected, Object: ref, Field: op, Message: `Unsupported value: "Inn"`},
		{Severity: diag.Warning, Check: "taint-disabled", Object: ref, Field: op},
	}
	got := DropCovered(ds)
	if len(got) != 3 || got[0].Check != CheckRejected || got[1].Check != CheckRejected || got[2].Check != "taint-disabled" {
		t.Fatalf("DropCovered = %v", got)
	}
	if got[1].Suggestion != "In" || got[1].Message != `Unsupported value: "Inn" (did you mean "In"?)` {
		t.Errorf("the refusal did not take the did-you-mean: %+v", got[1])
	}
}

func readSet(t *testing.T, text string) *objects.Set {
	t.Helper()
	s := &objects.Set{}
	if ds := testkit.ReadText(s, []byte(text), "in.yaml", false); len(ds) != 0 {
		t.Fatalf("input does not read cleanly: %v", ds)
	}
	return s
}

func hasProblem(v Verdict, field, detail string) bool {
	for _, p := range v.Problems {
		if p.Field == field && strings.HasPrefix(p.Detail, detail) {
			return true
		}
	}
	return false
}

func encode(t *testing.T, n *yaml.Node) string {
	t.Helper()
	b, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMergeKeysAreNeitherPrunedNorMissing(t *testing.T) {
	obj := `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: merged}
spec:
  rules:
  - &base
    name: a
    labels: {a: "1"}
  - <<: *base
    labels: {b: "1"}
`
	if v := Check(schema(t, 19, api.KindNodeFeatureRule), parse(t, obj)); v.Rejected() || len(v.Pruned) > 0 {
		t.Errorf("verdict = %+v", v)
	}
}
