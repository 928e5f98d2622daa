package engine

import (
	"strings"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// runAs compiles one rule as release name and runs it on testFeatures.
func runAs(t *testing.T, name string, r api.Rule) (map[string]string, []*EvalError, []Diagnostic) {
	t.Helper()
	rel, err := release.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	rs, diags := CompileAs(rel, []*api.NodeFeatureRule{ruleObject("o", r)})
	results, errs := rs.Execute(testFeatures())
	labels := map[string]string{}
	for _, res := range results {
		for k, v := range res.Labels {
			labels[k] = v
		}
	}
	return labels, errs, diags
}

func avxRule(tmpl string) api.Rule {
	return api.Rule{Name: "r", LabelsTemplate: tmpl, MatchFeatures: api.FeatureMatcher{
		{Feature: "cpu.cpuid", MatchExpressions: &api.MatchExpressionSet{"AVX": mexpr(api.MatchExists)}}}}
}

func TestSprigFuncsOnlyFromV018(t *testing.T) {
	r := avxRule(`os={{ "Linux" | lower }}`)
	for _, tt := range []struct {
		release string
		want    string
	}{{"v0.16.9", ""}, {"v0.17.4", ""}, {"v0.18.0", "linux"}, {"v0.19.0", "linux"}, {"openshift-5.0", "linux"}} {
		labels, errs, diags := runAs(t, tt.release, r)
		if labels["os"] != tt.want {
			t.Errorf("%s: labels %v, want os=%q", tt.release, labels, tt.want)
		}
		if tt.want == "" && (len(errs) != 1 || len(diags) == 0 || !strings.Contains(diags[0].Message, "lower is a Sprig function: nfd-master "+tt.release+" has none, they arrive in v0.18.0")) {
			t.Errorf("%s: errors %v, diagnostics %v", tt.release, errs, diags)
		}
	}
}

func TestBuiltinTemplateFuncsOnEveryRelease(t *testing.T) {
	r := avxRule(`n={{ len .cpu.cpuid }}{{ printf "%s" "x" }}`)
	for _, name := range []string{"v0.16.9", "v0.17.1", "v0.18.3", "v0.19.0"} {
		if labels, errs, _ := runAs(t, name, r); labels["n"] != "1x" || len(errs) > 0 {
			t.Errorf("%s: labels %v, errors %v", name, labels, errs)
		}
	}
}

func TestHostEnvFuncsOnlyOnV018(t *testing.T) {
	r := avxRule(`site={{ env "NFD_FN_TEST_UNSET" | default "lab" }}{{ expandenv "-$NFD_FN_TEST_UNSET-" }}{{ getHostByName "localhost" }}`)
	labels, errs, diags := runAs(t, "v0.18.3", r)
	if labels["site"] != "lab--127.0.0.1" || len(errs) > 0 {
		t.Errorf("v0.18.3: labels %v, errors %v", labels, errs)
	}
	if len(diags) != 3 || !strings.Contains(diags[0].Message, "reads nfd-master's pod") {
		t.Errorf("v0.18.3: want a warning per host environment function, got %v", diags)
	}
	for _, name := range []string{"v0.17.1", "v0.19.0"} {
		if labels, errs, _ := runAs(t, name, r); len(labels) > 0 || len(errs) != 1 {
			t.Errorf("%s: labels %v, errors %v; the template must not parse", name, labels, errs)
		}
	}
	if _, errs, _ := runAs(t, "v0.18.3", avxRule(`h={{ getHostByName "nfd.example.invalid" }}`)); len(errs) != 1 {
		t.Errorf("getHostByName of a name: errors %v, want the rule to fail", errs)
	}
}

func TestTemplateSizeCapFromV019(t *testing.T) {
	big := avxRule("{{/* " + strings.Repeat("x", MaxTemplateSize) + " */}}\nbig=true")
	for _, tt := range []struct {
		release string
		want    string
	}{{"v0.17.1", "true"}, {"v0.18.3", "true"}, {"v0.19.0", ""}} {
		labels, errs, _ := runAs(t, tt.release, big)
		if labels["big"] != tt.want || (tt.want == "") != (len(errs) == 1) {
			t.Errorf("%s: labels %v, errors %v, want big=%q", tt.release, labels, errs, tt.want)
		}
	}
}

func TestTemplateLargerThanOutputBudgetPrintsWithoutCap(t *testing.T) {
	text := strings.Repeat("k=v\n", MaxTemplateOutput/4+100)
	if labels, errs, _ := runAs(t, "v0.18.3", avxRule(text)); labels["k"] != "v" || len(errs) > 0 {
		t.Errorf("labels %v, errors %v", labels, errs)
	}
}

func TestMissingFeatureFailsOnV016(t *testing.T) {
	r := api.Rule{Name: "r", Labels: map[string]string{"x": "1"}, MatchAny: []api.MatchAnyElem{
		{MatchFeatures: api.FeatureMatcher{{Feature: "vendor.accelerator", MatchExpressions: &api.MatchExpressionSet{"a": mexpr(api.MatchExists)}}}},
		{MatchFeatures: api.FeatureMatcher{{Feature: "cpu.cpuid", MatchExpressions: &api.MatchExpressionSet{"AVX": mexpr(api.MatchExists)}}}},
	}}
	labels, errs, _ := runAs(t, "v0.16.9", r)
	if len(labels) > 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), `feature "vendor.accelerator" not available`) {
		t.Errorf("v0.16.9: labels %v, errors %v", labels, errs)
	}
	if labels, errs, _ := runAs(t, "v0.17.1", r); labels["x"] != "1" || len(errs) > 0 {
		t.Errorf("v0.17.1: labels %v, errors %v", labels, errs)
	}
}
