package discover

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// testFeatures is a small feature set for rule tests.
func testFeatures() v1alpha1.Features {
	f := newFeatures()
	f.Flags["kernel.loadedmodule"] = flagSet([]string{"e1000", "kvm"})
	f.Flags["cpu.cpuid"] = flagSet([]string{"AVX2", "AVX512F"})
	f.Attributes["kernel.version"] = attrSet(map[string]string{"major": "6", "minor": "8", "full": "6.8.0"})
	f.Attributes["kernel.config"] = attrSet(map[string]string{"KVM": "m", "HZ": "1000", "STR": "abc"})
	f.Attributes["cpu.topology"] = attrSet(map[string]string{"hardware_multithreading": "true"})
	f.Instances["pci.device"] = instanceSet([]map[string]string{
		{"class": "0300", "vendor": "8086", "device": "3e98"},
		{"class": "0200", "vendor": "15b3", "device": "1017"},
	})
	f.Instances["usb.device"] = instanceSet([]map[string]string{{"class": "ff", "vendor": "0403", "device": "6001", "serial": "S1"}})
	return f
}

// parseRule parses one custom rule in worker-config YAML.
func parseRule(t *testing.T, y string) customRule {
	t.Helper()
	rules, _, err := parseCustomFile([]byte(y))
	if err != nil {
		t.Fatalf("parsing %q: %v", y, err)
	}
	if len(rules) != 1 {
		t.Fatalf("got %d rules", len(rules))
	}
	return rules[0]
}

func TestMinimalEvaluatorOperators(t *testing.T) {
	tests := []struct {
		name    string
		rule    string
		want    bool
		wantErr string
	}{
		{"in", `[{name: r, matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: In, value: ["5", "6"]}}}]}]`, true, ""},
		{"notin-missing-key-is-false", `[{name: r, matchFeatures: [{feature: kernel.version, matchExpressions: {nope: {op: NotIn, value: ["1"]}}}]}]`, false, ""},
		{"inregexp", `[{name: r, matchFeatures: [{feature: kernel.version, matchExpressions: {full: {op: InRegexp, value: ["^6\\."]}}}]}]`, true, ""},
		{"exists-on-flags", `[{name: r, matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: {e1000: {op: Exists}, nvme: {op: DoesNotExist}}}]}]`, true, ""},
		{"gt-lt-gtlt", `[{name: r, matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Gt, value: "5"}, minor: {op: GtLt, value: ["7", "9"]}}}, {feature: kernel.config, matchExpressions: {HZ: {op: Lt, value: ["1001"]}}}]}]`, true, ""},
		{"istrue-isfalse", `[{name: r, matchFeatures: [{feature: cpu.topology, matchExpressions: {hardware_multithreading: {op: IsTrue}}}]}]`, true, ""},
		{"isfalse-on-true", `[{name: r, matchFeatures: [{feature: cpu.topology, matchExpressions: {hardware_multithreading: {op: IsFalse}}}]}]`, false, ""},
		{"instances-need-one-device-for-all", `[{name: r, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: "8086", class: "0200"}}]}]`, false, ""},
		{"instances-one-device", `[{name: r, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: "15b3", class: "0200"}}]}]`, true, ""},
		{"absent-feature-false-even-for-doesnotexist", `[{name: r, matchFeatures: [{feature: no.such, matchExpressions: {x: {op: DoesNotExist}}}]}]`, false, ""},
		{"feature-name-lowercased", `[{name: r, matchFeatures: [{feature: Kernel.LoadedModule, matchExpressions: [kvm]}]}]`, true, ""},
		{"match-name", `[{name: r, matchFeatures: [{feature: cpu.cpuid, matchName: {op: InRegexp, value: ["^AVX5"]}}]}]`, true, ""},
		{"match-any", `[{name: r, matchAny: [{matchFeatures: [{feature: no.such}]}, {matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: [kvm]}]}]}]`, true, ""},
		{"empty-set-matches-existing", `[{name: r, matchFeatures: [{feature: usb.device, matchExpressions: {}}]}]`, true, ""},
		{"non-integer-is-error", `[{name: r, matchFeatures: [{feature: kernel.config, matchExpressions: {STR: {op: Gt, value: ["1"]}}}]}]`, false, "not a number"},
		{"value-op-on-flag-is-error", `[{name: r, matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: {kvm: {op: In, value: ["x"]}}}]}]`, false, "flag feature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := parseRule(t, tt.rule)
			out, err := MinimalEvaluator{}.EvaluateRule(*r.rule, testFeatures())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.Matched != tt.want {
				t.Errorf("matched = %v, want %v", out.Matched, tt.want)
			}
		})
	}
}

func TestCustomRuleExpressionShortForms(t *testing.T) {
	r := parseRule(t, `[{name: r, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: ["8086"], device: "1234"}}, {feature: kernel.loadedmodule, matchExpressions: ["a", "b=c"]}, {feature: x.y, matchExpressions: {k: null, num: 5, b: true, any: {}}}, {pci.device: {vendor: "8086"}}]}]`)
	in := func(v ...string) *v1alpha1.MatchExpression {
		return &v1alpha1.MatchExpression{Op: v1alpha1.MatchIn, Value: v}
	}
	exists := &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}
	want := v1alpha1.FeatureMatcher{
		{Feature: "pci.device", MatchExpressions: &v1alpha1.MatchExpressionSet{"vendor": in("8086"), "device": in("1234")}},
		{Feature: "kernel.loadedmodule", MatchExpressions: &v1alpha1.MatchExpressionSet{"a": exists, "b": in("c")}},
		{Feature: "x.y", MatchExpressions: &v1alpha1.MatchExpressionSet{"k": exists, "num": in("5"), "b": in("true"), "any": {Op: v1alpha1.MatchAny}}},
		// nfd-worker has no short form for a whole term: the key is ignored.
		{},
	}
	if diff := cmp.Diff(want, r.rule.MatchFeatures); diff != "" {
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
			_, _, err := parseCustomFile([]byte(`[{name: r, matchFeatures: [{feature: a.b, matchExpressions: {k: ` + tt.expr + `}}]}]`))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestLegacyRules(t *testing.T) {
	kconfig := legacyKconfig(testFeatures())
	tests := []struct {
		name string
		rule string
		want map[string]string
	}{
		{"pci-or-within-attribute", `[{name: p, matchOn: [{pciId: {vendor: ["15b3"], device: ["1014", "1017"]}}]}]`, map[string]string{"custom-p": "true"}},
		{"pci-and-across-attributes", `[{name: p, matchOn: [{pciId: {vendor: ["8086"], device: ["1017"]}}]}]`, nil},
		{"pci-empty-matches-nothing", `[{name: p, matchOn: [{pciId: {}}]}]`, nil},
		{"usb-with-serial", `[{name: u, value: "yes", matchOn: [{usbId: {vendor: ["0403"], serial: ["S1"]}}]}]`, map[string]string{"custom-u": "yes"}},
		{"kmod-all-loaded", `[{name: k, matchOn: [{loadedKMod: ["e1000", "kvm"]}]}]`, map[string]string{"custom-k": "true"}},
		{"kmod-one-missing", `[{name: k, matchOn: [{loadedKMod: ["e1000", "nvme"]}]}]`, nil},
		{"matchers-ored", `[{name: o, matchOn: [{loadedKMod: ["nvme"]}, {cpuId: ["AVX2"]}]}]`, map[string]string{"custom-o": "true"}},
		{"rules-anded", `[{name: a, matchOn: [{loadedKMod: ["kvm"], cpuId: ["SSE9"]}]}]`, nil},
		{"kconfig-enabled-and-value", `[{name: c, matchOn: [{kConfig: ["KVM", "HZ=1000"]}]}]`, map[string]string{"custom-c": "true"}},
		{"kconfig-wrong-value", `[{name: c, matchOn: [{kConfig: ["HZ=250"]}]}]`, nil},
		{"kconfig-value-is-not-enabled", `[{name: c, matchOn: [{kConfig: ["STR"]}]}]`, nil},
		{"nodename-regexp", `[{name: ex.com/n, matchOn: [{nodename: ["[bad", "^worker-[0-9]+$"]}]}]`, map[string]string{"ex.com/n": "true"}},
		{"no-matchers-always", `[{name: always, matchOn: []}]`, map[string]string{"custom-always": "true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := parseRule(t, tt.rule)
			if r.legacy == nil {
				t.Fatal("not parsed as a legacy rule")
			}
			if diff := cmp.Diff(tt.want, r.legacy.execute(testFeatures(), kconfig, "worker-12")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestWorkerConfigDefaultsAndOverrides(t *testing.T) {
	cfg, warnings, err := parseWorkerConfig([]byte("core: {sources: [cpu]}\nsources: {pci: {deviceClassWhitelist: ['02']}, kernel: {kconfigFile: /x/config}}"))
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
