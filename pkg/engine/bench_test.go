package engine

import (
	"fmt"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// benchFeatures is a node with a realistic amount of features: 200 CPU
// flags, a kernel version and 64 PCI devices.
func benchFeatures() *api.Features {
	flags := map[string]api.Nil{}
	for i := range 200 {
		flags[fmt.Sprintf("FLAG%03d", i)] = api.Nil{}
	}
	var devs []api.InstanceFeature
	for i := range 64 {
		devs = append(devs, api.InstanceFeature{Attributes: map[string]string{
			"class": fmt.Sprintf("0%d00", i%4), "vendor": fmt.Sprintf("%04x", 0x8086+i%3), "device": fmt.Sprintf("%04x", i)}})
	}
	return &api.Features{
		Flags:      map[string]api.FlagFeatureSet{"cpu.cpuid": {Elements: flags}},
		Attributes: map[string]api.AttributeFeatureSet{"kernel.version": {Elements: map[string]string{"full": "6.8.0-45-generic", "major": "6"}}},
		Instances:  map[string]api.InstanceFeatureSet{"pci.device": {Elements: devs}},
	}
}

// benchRules are 30 rules: plain matchers, version comparisons and
// templates that range over matched instances and call sprig functions.
func benchRules() []*api.NodeFeatureRule {
	var rules []api.Rule
	for i := range 10 {
		rules = append(rules,
			api.Rule{Name: fmt.Sprintf("flags-%d", i), Labels: map[string]string{fmt.Sprintf("f%d", i): "true"}, MatchFeatures: api.FeatureMatcher{
				{Feature: "cpu.cpuid", MatchExpressions: &api.MatchExpressionSet{fmt.Sprintf("FLAG%03d", i): mexpr(api.MatchExists)}},
				{Feature: "kernel.version", MatchExpressions: &api.MatchExpressionSet{"full": {Op: api.MatchGe, Value: []string{"5.15"}, Type: api.ValueTypeVersion}}},
			}},
			api.Rule{Name: fmt.Sprintf("template-%d", i),
				LabelsTemplate: "{{ range .pci.device }}pci-{{ .vendor | lower }}-{{ .device }}.present={{ printf \"%s\" .class | quote | len }}\n{{ end }}",
				MatchFeatures: api.FeatureMatcher{
					{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{"class": mexpr(api.MatchInRegexp, "^0[23]")}},
				}},
			api.Rule{Name: fmt.Sprintf("names-%d", i), VarsTemplate: "{{ range .cpu.cpuid }}{{ .Name }}=1\n{{ end }}", MatchFeatures: api.FeatureMatcher{
				{Feature: "cpu.cpuid", MatchName: mexpr(api.MatchInRegexp, fmt.Sprintf("^FLAG%d", i))},
			}},
		)
	}
	return []*api.NodeFeatureRule{ruleObject("bench", rules...)}
}

func BenchmarkExecute(b *testing.B) {
	rs, diags := Compile(benchRules())
	for _, d := range diags {
		if d.Severity == SeverityError {
			b.Fatalf("diagnostic: %v", d)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := rs.Execute(benchFeatures()); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	objs := benchRules()
	b.ReportAllocs()
	for b.Loop() {
		Compile(objs)
	}
}
