package featuregate

import (
	"reflect"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

func TestDefaultsAreNFDsGatesWithGroupsOn(t *testing.T) {
	g := New(Defaults())
	want := map[string]bool{
		NodeFeatureAPI:      true,
		DisableAutoPrefix:   false,
		NodeFeatureGroupAPI: true,
		"NoSuchGate":        false,
		"AllAlpha":          false,
	}
	for name, on := range want {
		if got := g.Enabled(name); got != on {
			t.Errorf("Enabled(%q) = %v, want %v", name, got, on)
		}
	}
	if s := Defaults()[NodeFeatureAPI]; !s.LockToDefault || s.Maturity != GA {
		t.Errorf("NodeFeatureAPI spec = %+v, want GA and locked", s)
	}
}

func TestDefaultsReturnsAFreshMap(t *testing.T) {
	d := Defaults()
	d[DisableAutoPrefix] = Spec{Default: true}
	if Defaults()[DisableAutoPrefix].Default {
		t.Error("changing the map Defaults returned changed the next one")
	}
}

// testGates adds a deprecated gate and a locked alpha gate to the defaults.
func testGates() map[string]Spec {
	known := Defaults()
	known["OldThing"] = Spec{Default: true, Maturity: Deprecated}
	known["LockedAlpha"] = Spec{Default: false, Maturity: Alpha, LockToDefault: true}
	return known
}

func TestSetParsesNameBoolListsAsNFDMasterDoes(t *testing.T) {
	tests := []struct {
		name     string
		spec     string
		enabled  map[string]bool
		problems []Problem
	}{
		{
			name:    "empty-spec-keeps-defaults",
			spec:    "",
			enabled: map[string]bool{DisableAutoPrefix: false, NodeFeatureGroupAPI: true},
		},
		{
			name:    "one-gate",
			spec:    "DisableAutoPrefix=true",
			enabled: map[string]bool{DisableAutoPrefix: true, NodeFeatureGroupAPI: true},
		},
		{
			name:    "spaces-and-empty-parts-ignored",
			spec:    " DisableAutoPrefix = true ,, NodeFeatureGroupAPI=false ,",
			enabled: map[string]bool{DisableAutoPrefix: true, NodeFeatureGroupAPI: false},
		},
		{
			name:    "strconv-bools",
			spec:    "DisableAutoPrefix=1,NodeFeatureGroupAPI=F",
			enabled: map[string]bool{DisableAutoPrefix: true, NodeFeatureGroupAPI: false},
		},
		{
			name:    "last-setting-of-a-gate-wins",
			spec:    "DisableAutoPrefix=true,DisableAutoPrefix=false",
			enabled: map[string]bool{DisableAutoPrefix: false},
		},
		{
			name:     "unknown-gate-is-an-error-and-others-still-apply",
			spec:     "Nope=true,DisableAutoPrefix=true",
			enabled:  map[string]bool{DisableAutoPrefix: true, "Nope": false},
			problems: []Problem{{Message: `unrecognized feature gate "Nope": nfd-master refuses to start on a gate it does not know, AllAlpha and AllBeta included; it knows DisableAutoPrefix, LockedAlpha, NodeFeatureAPI, NodeFeatureGroupAPI, OldThing`}},
		},
		{
			name:     "misspelt-gate-gets-a-suggestion",
			spec:     "DisableAutoPrefx=true",
			enabled:  map[string]bool{DisableAutoPrefix: false},
			problems: []Problem{{Message: `unrecognized feature gate "DisableAutoPrefx" (did you mean "DisableAutoPrefix"?): nfd-master refuses to start on a gate it does not know, AllAlpha and AllBeta included; it knows DisableAutoPrefix, LockedAlpha, NodeFeatureAPI, NodeFeatureGroupAPI, OldThing`}},
		},
		{
			name:     "missing-value",
			spec:     "DisableAutoPrefix",
			enabled:  map[string]bool{DisableAutoPrefix: false},
			problems: []Problem{{Message: `invalid feature gate setting "DisableAutoPrefix": want Name=true or Name=false`}},
		},
		{
			name:     "not-a-bool",
			spec:     "DisableAutoPrefix=yes",
			enabled:  map[string]bool{DisableAutoPrefix: false},
			problems: []Problem{{Message: `invalid feature gate setting "DisableAutoPrefix=yes": want Name=true or Name=false`}},
		},
		{
			name:     "all-alpha-is-unrecognized",
			spec:     "AllAlpha=true",
			enabled:  map[string]bool{DisableAutoPrefix: false, NodeFeatureGroupAPI: true},
			problems: []Problem{{Message: `unrecognized feature gate "AllAlpha": nfd-master refuses to start on a gate it does not know, AllAlpha and AllBeta included; it knows DisableAutoPrefix, LockedAlpha, NodeFeatureAPI, NodeFeatureGroupAPI, OldThing`}},
		},
		{
			name:     "all-beta-is-unrecognized",
			spec:     "AllBeta=false",
			enabled:  map[string]bool{NodeFeatureGroupAPI: true},
			problems: []Problem{{Message: `unrecognized feature gate "AllBeta": nfd-master refuses to start on a gate it does not know, AllAlpha and AllBeta included; it knows DisableAutoPrefix, LockedAlpha, NodeFeatureAPI, NodeFeatureGroupAPI, OldThing`}},
		},
		{
			name:     "unknown-gates-are-one-error-naming-the-first-few",
			spec:     "Zed=true,Beta=true,AllAlpha=true,Alpha=false,DisableAutoPrefix=true",
			enabled:  map[string]bool{DisableAutoPrefix: true},
			problems: []Problem{{Message: `unrecognized feature gate "AllAlpha", and 3 more ("Alpha", "Beta", ...): nfd-master refuses to start on a gate it does not know, AllAlpha and AllBeta included; it knows DisableAutoPrefix, LockedAlpha, NodeFeatureAPI, NodeFeatureGroupAPI, OldThing`}},
		},
		{
			name:     "invalid-all-alpha-is-not-applied",
			spec:     "AllAlpha=on",
			enabled:  map[string]bool{DisableAutoPrefix: false},
			problems: []Problem{{Message: `invalid feature gate setting "AllAlpha=on": want Name=true or Name=false`}},
		},
		{
			name:     "locked-gate-away-from-default-is-an-error",
			spec:     "NodeFeatureAPI=false",
			enabled:  map[string]bool{NodeFeatureAPI: true},
			problems: []Problem{{Message: "cannot set feature gate NodeFeatureAPI to false, it is locked to true: nfd-master refuses to start (from v0.17; v0.16's nfd-master would read features over gRPC instead of NodeFeature objects, which nfd-fn does not model)"}},
		},
		{
			name:     "locked-alpha-gate-away-from-default",
			spec:     "LockedAlpha=true",
			enabled:  map[string]bool{"LockedAlpha": false},
			problems: []Problem{{Message: "cannot set feature gate LockedAlpha to true, it is locked to false: nfd-master refuses to start"}},
		},
		{
			name:     "ga-gate-at-its-default-is-a-warning",
			spec:     "NodeFeatureAPI=true",
			enabled:  map[string]bool{NodeFeatureAPI: true},
			problems: []Problem{{Warning: true, Message: "feature gate NodeFeatureAPI is GA and always true; setting it will stop working in a future release"}},
		},
		{
			name:     "deprecated-gate-is-set-with-a-warning",
			spec:     "OldThing=false",
			enabled:  map[string]bool{"OldThing": false},
			problems: []Problem{{Warning: true, Message: "feature gate OldThing is deprecated and will be removed"}},
		},
		{
			name:    "problems-come-in-gate-name-order",
			spec:    "OldThing=false,NodeFeatureAPI=false",
			enabled: map[string]bool{"OldThing": false, NodeFeatureAPI: true},
			problems: []Problem{
				{Message: "cannot set feature gate NodeFeatureAPI to false, it is locked to true: nfd-master refuses to start (from v0.17; v0.16's nfd-master would read features over gRPC instead of NodeFeature objects, which nfd-fn does not model)"},
				{Warning: true, Message: "feature gate OldThing is deprecated and will be removed"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := New(testGates())
			problems := problemsOf(g.Set(tc.spec))
			if !reflect.DeepEqual(problems, tc.problems) {
				t.Errorf("Set(%q) problems =\n%#v\nwant\n%#v", tc.spec, problems, tc.problems)
			}
			for name, on := range tc.enabled {
				if got := g.Enabled(name); got != on {
					t.Errorf("after Set(%q): Enabled(%q) = %v, want %v", tc.spec, name, got, on)
				}
			}
		})
	}
}

func TestSetAppliesOnTopOfEarlierSets(t *testing.T) {
	g := New(Defaults())
	if p := g.Set("DisableAutoPrefix=true"); p != nil {
		t.Fatal(p)
	}
	if p := g.Set("NodeFeatureGroupAPI=false"); p != nil {
		t.Fatal(p)
	}
	if !g.Enabled(DisableAutoPrefix) || g.Enabled(NodeFeatureGroupAPI) {
		t.Errorf("DisableAutoPrefix=%v NodeFeatureGroupAPI=%v, want true false",
			g.Enabled(DisableAutoPrefix), g.Enabled(NodeFeatureGroupAPI))
	}
}

func TestKnownListOfDefaults(t *testing.T) {
	want := "DisableAutoPrefix=true|false (ALPHA - default=false), NodeFeatureAPI=true|false (GA - default=true, locked), " +
		"NodeFeatureGroupAPI=true|false (BETA - default=true)"
	if got := New(Defaults()).KnownList(); got != want {
		t.Errorf("KnownList() =\n%s\nwant\n%s", got, want)
	}
}

// Problem is what the table expects of a diagnostic from Set.
type Problem struct {
	Warning bool
	Message string
}

func problemsOf(l diag.List) []Problem {
	var out []Problem
	for _, d := range l {
		msg := d.Message
		if d.Check != "feature-gate" {
			msg = "check " + d.Check + " instead of feature-gate: " + msg
		}
		out = append(out, Problem{Warning: d.Severity == diag.Warning, Message: msg})
	}
	return out
}
