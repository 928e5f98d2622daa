package config

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func load(t *testing.T, text string) (Settings, []string) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	s, ds := Load(doc.Content[0])
	var msgs []string
	for _, d := range ds {
		msgs = append(msgs, string(d.Severity)+" "+d.Field+": "+d.Message)
	}
	return s, msgs
}

// TestConfigMapAndTypedFormsReadTheSameKeys checks the one key table: the
// same keys in a ConfigMap's data (strings) and in NFDFunctionConfig
// (typed) give the same settings.
func TestConfigMapAndTypedFormsReadTheSameKeys(t *testing.T) {
	cm, p1 := load(t, `apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data: {enableTaints: "true", denyLabelNs: "a.io, *.b.io", featureGates: "DisableAutoPrefix=true", nodeOutput: apply, ignore: "NFD020,NFD006", shard: "1/3"}`)
	typed, p2 := load(t, `apiVersion: fn.nfd-fn.dev/v1alpha1
kind: NFDFunctionConfig
metadata: {name: c}
enableTaints: true
denyLabelNs: [a.io, "*.b.io"]
featureGates: {DisableAutoPrefix: true}
nodeOutput: apply
ignore: [NFD020, NFD006]
shard: 1/3`)
	if len(p1)+len(p2) > 0 {
		t.Fatalf("problems: %v %v", p1, p2)
	}
	for _, s := range []Settings{cm, typed} {
		if !s.Options.EnableTaints || s.Options.AutoPrefix || strings.Join(s.Options.DenyLabelNs, "|") != "a.io|*.b.io" ||
			s.NodeOutput != NodeOutputApply || s.Ignore != "NFD020,NFD006" || s.Shard.String() != "1/3" {
			t.Errorf("settings = %+v", s)
		}
	}
}

// TestDefaultsAndValidation checks Default's values and Validate's and
// the key table's messages.
func TestDefaultsAndValidation(t *testing.T) {
	s, problems := load(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {}\n")
	if len(problems) != 0 || s.Mode != "render" || s.NodeOutput != NodeOutputPreview || !s.OpenShiftAlias || !s.Options.AllowOverwrite {
		t.Errorf("defaults = %+v, problems %v", s, problems)
	}
	tests := []struct{ data, want string }{
		{`{enableTaint: "true"}`, `error data.enableTaint: unknown key "enableTaint": did you mean "enableTaints"?`},
		{`{enableTaints: "yes"}`, `error data.enableTaints: "yes" is not a boolean`},
		{`{mode: rendr}`, `error data.mode: unknown mode "rendr"`},
		{`{nodeOutput: patch}`, `error data.nodeOutput: unknown nodeOutput "patch"`},
		{`{explainRule: r}`, `error data.explainRule: explainRule needs explainNode`},
		{`{instance: "-x"}`, `error data.instance: invalid instance name "-x"`},
		{`{shard: "3/3"}`, `error data.shard: shard "3/3": want 0 <= I < N`},
		{`{hostRoot: /mnt}`, `warning data.hostRoot: hostRoot is a mode discover setting; mode render ignores it`},
		{`{mode: discover, nfdVersion: v0.16.9}`, `error data.nfdVersion: nfd-worker release "v0.16.9" is not modelled (supported: v0.17.x, v0.18.x, v0.19.0, and OpenShift's operand as openshift-4.18 to openshift-5.0)`},
	}
	for _, tt := range tests {
		_, problems := load(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: "+tt.data+"\n")
		if len(problems) != 1 || !strings.HasPrefix(problems[0], tt.want) {
			t.Errorf("%s: problems %q, want one starting %q", tt.data, problems, tt.want)
		}
	}
}

func TestNfdNamespaceMakesMastersNamespaceKnown(t *testing.T) {
	s, p := load(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {nfdNamespace: nfd, groupStatusAllNamespaces: \"true\"}")
	if len(p) > 0 || s.Options.Namespace != "nfd" || !s.Options.NamespaceKnown || !s.Options.GroupStatusAllNamespaces {
		t.Errorf("problems %q, options %+v", p, s.Options)
	}
	unset, _ := load(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {}")
	if unset.Options.NamespaceKnown || unset.Options.GroupStatusAllNamespaces {
		t.Errorf("defaults: %+v", unset.Options)
	}
}

func TestMasterShownNamesTheNamespaceTheConfigDoesNot(t *testing.T) {
	shown, _ := load(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {}")
	shown.MasterShown("nfd")
	shown.SetRelease(shown.Options.NFDRelease()) // survives a release settled later
	given, _ := load(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {nfdNamespace: ops}")
	given.MasterShown("nfd")
	empty, _ := load(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {}")
	empty.MasterShown("")
	if o := shown.Options; o.Namespace != "nfd" || !o.NamespaceKnown {
		t.Errorf("shown: %q known %v", o.Namespace, o.NamespaceKnown)
	}
	if o := given.Options; o.Namespace != "ops" {
		t.Errorf("the configured namespace was replaced by the shown one: %q", o.Namespace)
	}
	if o := empty.Options; o.NamespaceKnown {
		t.Errorf("an empty namespace made the namespace known")
	}
}

func TestWorkerConfigOutsideDiscoverPointsAtTheConfigMap(t *testing.T) {
	_, p := load(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {mode: validate, workerConfig: /etc/nfd-worker.conf}")
	if len(p) != 1 || !strings.Contains(p[0], `warning data.workerConfig: workerConfig is a mode discover setting; mode validate ignores it (render and validate read the worker configuration from the input's ConfigMap with data["nfd-worker.conf"]; workerConfigMap names the one about to roll out)`) {
		t.Errorf("problems = %q", p)
	}
}
