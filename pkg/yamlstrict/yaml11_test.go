package yamlstrict

import (
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// TestYAML11BoolsAreWhatKubectlSendsAsBooleans holds IsYAML11Bool to
// sigs.k8s.io/yaml, the YAML 1.1 reader kubectl and Helm convert with:
// a plain scalar it makes a boolean, and yaml.v3 a string, is one.
func TestYAML11BoolsAreWhatKubectlSendsAsBooleans(t *testing.T) {
	for _, s := range []string{
		"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
		"yEs", "oN", "nO", "ofF", "true", "True", "false", "yes!", "yess", "o", "", "x", "~", "null",
	} {
		var v map[string]any
		if err := sigsyaml.Unmarshal([]byte("v: "+s), &v); err != nil {
			t.Fatalf("sigs.k8s.io/yaml cannot read %q: %v", s, err)
		}
		_, boolean := v["v"].(bool)
		want := boolean && s != "true" && s != "True" && s != "false" // yaml.v3 reads those as booleans too
		if got := IsYAML11Bool(s); got != want {
			t.Errorf("IsYAML11Bool(%q) = %v; sigs.k8s.io/yaml reads a boolean: %v", s, got, boolean)
		}
	}
}
