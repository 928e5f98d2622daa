package discover

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// testFeatures is a small feature set for rule tests.
func testFeatures() v1alpha1.Features {
	c := newCollector("t", false)
	c.flags("x", []string{"e1000", "kvm"})
	f := newFeatures()
	f.Flags["kernel.loadedmodule"] = c.features.Flags["t.x"]
	c.flags("x", []string{"AVX2", "AVX512F"})
	f.Flags["cpu.cpuid"] = c.features.Flags["t.x"]
	f.Attributes["kernel.version"] = v1alpha1.AttributeFeatureSet{Elements: map[string]string{"major": "6", "minor": "8", "full": "6.8.0"}}
	f.Attributes["kernel.config"] = v1alpha1.AttributeFeatureSet{Elements: map[string]string{"KVM": "m", "HZ": "1000", "STR": "abc"}}
	f.Attributes["cpu.topology"] = v1alpha1.AttributeFeatureSet{Elements: map[string]string{"hardware_multithreading": "true"}}
	c.instances("x", []map[string]string{
		{"class": "0300", "vendor": "8086", "device": "3e98"},
		{"class": "0200", "vendor": "15b3", "device": "1017"},
	})
	f.Instances["pci.device"] = c.features.Instances["t.x"]
	return f
}

// parseRule parses one custom rule in custom.d YAML.
func parseRule(t *testing.T, y string) *v1alpha1.Rule {
	t.Helper()
	rules, err := parseCustomFile([]byte(y))
	if err != nil {
		t.Fatalf("parsing %q: %v", y, err)
	}
	if len(rules) != 1 {
		t.Fatalf("got %d rules", len(rules))
	}
	return rules[0].toRule()
}

// The worker's custom rules run on pkg/engine, the engine of nfd-fn's
// NodeFeatureRules: these cases pin the custom-rule API's decoding to it.
func TestCustomRulesRunOnTheRuleEngine(t *testing.T) {
	tests := []struct {
		name    string
		rule    string
		want    bool
		wantErr bool
	}{
		{"in", `[{name: r, matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: In, value: ["5", "6"]}}}]}]`, true, false},
		{"notin-missing-key-is-false", `[{name: r, matchFeatures: [{feature: kernel.version, matchExpressions: {nope: {op: NotIn, value: ["1"]}}}]}]`, false, false},
		{"inregexp", `[{name: r, matchFeatures: [{feature: kernel.version, matchExpressions: {full: {op: InRegexp, value: ["^6\\."]}}}]}]`, true, false},
		{"exists-on-flags", `[{name: r, matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: {e1000: {op: Exists}, nvme: {op: DoesNotExist}}}]}]`, true, false},
		{"gt-lt-gtlt", `[{name: r, matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Gt, value: "5"}, minor: {op: GtLt, value: ["7", "9"]}}}, {feature: kernel.config, matchExpressions: {HZ: {op: Lt, value: ["1001"]}}}]}]`, true, false},
		{"istrue", `[{name: r, matchFeatures: [{feature: cpu.topology, matchExpressions: {hardware_multithreading: {op: IsTrue}}}]}]`, true, false},
		{"isfalse-on-true", `[{name: r, matchFeatures: [{feature: cpu.topology, matchExpressions: {hardware_multithreading: {op: IsFalse}}}]}]`, false, false},
		{"instances-need-one-device-for-all", `[{name: r, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: "8086", class: "0200"}}]}]`, false, false},
		{"instances-one-device", `[{name: r, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: "15b3", class: "0200"}}]}]`, true, false},
		{"absent-feature-false-even-for-doesnotexist", `[{name: r, matchFeatures: [{feature: no.such, matchExpressions: {x: {op: DoesNotExist}}}]}]`, false, false},
		{"match-name", `[{name: r, matchFeatures: [{feature: cpu.cpuid, matchName: {op: InRegexp, value: ["^AVX5"]}}]}]`, true, false},
		{"match-any", `[{name: r, matchAny: [{matchFeatures: [{feature: no.such}]}, {matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: [kvm]}]}]}]`, true, false},
		{"no-matcher-always-matches", `[{name: r, labels: {a: "b"}}]`, true, false},
		{"template", `[{name: r, labelsTemplate: "{{ range .pci.device }}v-{{ .vendor }}=true\n{{ end }}", matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: Exists}}}]}]`, true, false},
		{"non-integer-is-error", `[{name: r, matchFeatures: [{feature: kernel.config, matchExpressions: {STR: {op: Gt, value: ["1"]}}}]}]`, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFeatures()
			_, matched, err := engine.EvaluateRule(parseRule(t, tt.rule), &f)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want an error: %v", err, tt.wantErr)
			}
			if matched != tt.want {
				t.Errorf("matched = %v, want %v", matched, tt.want)
			}
		})
	}
}

func TestCustomRuleExpressionShortForms(t *testing.T) {
	cfg, _, err := parseWorkerConfig([]byte(`sources: {custom: [{name: r, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: ["8086"], device: "1234"}}, {feature: kernel.loadedmodule, matchExpressions: ["a", "b=c"]}, {feature: x.y, matchExpressions: {k: null, num: 5, b: true, any: {}}}, {pci.device: {vendor: "8086"}}]}]}`), latestRelease(), false)
	if err != nil {
		t.Fatal(err)
	}
	r := cfg.Sources.Custom[0].toRule()
	in := func(v ...string) *v1alpha1.MatchExpression {
		return &v1alpha1.MatchExpression{Op: v1alpha1.MatchIn, Value: v}
	}
	exists := &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}
	want := v1alpha1.FeatureMatcher{
		{Feature: "pci.device", MatchExpressions: &v1alpha1.MatchExpressionSet{"vendor": in("8086"), "device": in("1234")}},
		{Feature: "kernel.loadedmodule", MatchExpressions: &v1alpha1.MatchExpressionSet{"a": exists, "b": in("c")}},
		{Feature: "x.y", MatchExpressions: &v1alpha1.MatchExpressionSet{"k": exists, "num": in("5"), "b": in("true"), "any": {Op: v1alpha1.MatchAny}}},
		// nfd-worker has no short form for a whole term: sources.custom
		// ignores the key (a custom.d file would be rejected).
		{},
	}
	if diff := cmp.Diff(want, r.MatchFeatures); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCustomRuleExpressionsValidatedLikeNfdWorker(t *testing.T) {
	tests := []struct {
		name, expr, wantErr string
	}{
		{"ge-is-not-a-worker-op", `{op: Ge, value: ["1"]}`, `invalid Op "Ge"`},
		{"gele-is-not-a-worker-op", `{op: GeLe, value: ["1", "2"]}`, `invalid Op "GeLe"`},
		{"gt-needs-an-integer", `{op: Gt, value: ["1.5"]}`, "value must be an integer"},
		{"gtlt-bounds-in-order", `{op: GtLt, value: ["5", "1"]}`, "value[0] must be less than Value[1]"},
		{"inregexp-must-compile", `{op: InRegexp, value: ["("]}`, "valid regexps"},
		{"exists-takes-no-value", `{op: Exists, value: ["x"]}`, "value must be empty"},
		{"missing-op-is-matchany-without-values", `{value: ["x"]}`, `value must be empty for Op ""`},
		{"values-typo-leaves-in-empty", `{op: In, values: ["x"]}`, "value must be non-empty"},
		{"list-of-non-strings", `[1, 2]`, "is not a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseCustomFile([]byte(`[{name: r, matchFeatures: [{feature: a.b, matchExpressions: {k: ` + tt.expr + `}}]}]`))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestLegacyMatchOnRulesMakeNoLabels(t *testing.T) {
	legacy := `[{name: my.kernel.feature, value: "x", matchOn: [{loadedKMod: ["kvm"]}]}]`
	if _, err := parseCustomFile([]byte(legacy)); err == nil || !strings.Contains(err.Error(), `unknown field "matchOn"`) {
		t.Errorf("custom.d file with a matchOn rule: error = %v, want the file rejected", err)
	}
	cfg, warnings, err := parseWorkerConfig([]byte("sources: {custom: "+legacy+"}"), latestRelease(), false)
	if err != nil {
		t.Fatal(err)
	}
	f := testFeatures()
	out, matched, err := engine.EvaluateRule(cfg.Sources.Custom[0].toRule(), &f)
	if err != nil || !matched || len(out.Labels) != 0 {
		t.Errorf("sources.custom matchOn rule: labels %v, matched %v, error %v; want a matcherless rule with no labels", out.Labels, matched, err)
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "removed in NFD v0.15") {
		t.Errorf("no warning about the removed matchOn form in %q", warnings)
	}
}

func TestWorkerConfigDefaultsAndOverrides(t *testing.T) {
	cfg, warnings, err := parseWorkerConfig([]byte("core: {sources: [cpu]}\nsources: {pci: {deviceClassWhitelist: ['02']}, kernel: {kconfigFile: /x/config}}"), latestRelease(), false)
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if diff := cmp.Diff([]string{"cpu"}, cfg.Core.LabelSources); diff != "" {
		t.Errorf("deprecated core.sources not applied (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"02"}, cfg.Sources.PCI.DeviceClassWhitelist); diff != "" {
		t.Errorf("pci whitelist (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"class", "vendor"}, cfg.Sources.PCI.DeviceLabelFields); diff != "" {
		t.Errorf("pci label fields lost their default (-want +got):\n%s", diff)
	}
	if cfg.Sources.Kernel.KconfigFile != "/x/config" || len(cfg.Sources.CPU.Cpuid.AttributeBlacklist) == 0 {
		t.Errorf("unexpected config %+v", cfg.Sources)
	}
}

func TestPickSourcesFollowsWorkerSyntax(t *testing.T) {
	kinds := sourceKinds()
	all := func(string) bool { return true }
	tests := []struct {
		name string
		list []string
		kind sourceKind
		want []string
	}{
		{"all-features", []string{"all"}, featureKind, []string{"cpu", "kernel", "local", "memory", "network", "pci", "storage", "system", "usb"}},
		{"all-minus", []string{"all", "-pci", "-usb", "-cpu", "-kernel", "-memory", "-network", "-local"}, featureKind, []string{"storage", "system"}},
		{"custom-is-label-only", []string{"custom"}, featureKind, nil},
		{"unknown-skipped", []string{"gpu", "custom"}, labelKind, []string{"custom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, pickSources(tt.list, tt.kind, kinds, all)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
