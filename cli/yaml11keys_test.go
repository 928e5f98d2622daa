package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestYAML11BooleanKeysAreReportedAndReadAsTheAPIServerStoresThem: an
// unquoted yes, no, on, off, y or n (YAML 1.1's spellings) as a key of a
// mapping with string keys (labels, vars, matchExpressions, elements) in a
// NodeFeatureRule, NodeFeatureGroup or NodeFeature is an NFD002 error at
// its line in validate and render, as the value case is, though the fast
// reader reads the file: kubectl and Helm send it as a boolean, which the
// API server stores as the key "true" or "false". The object is not
// refused, so render uses that key too: `on: "x"` labels the node
// feature.node.kubernetes.io/true, and `yes: {op: Exists}` matches the
// element "true". Quoted keys are not reported.
func TestYAML11BooleanKeysAreReportedAndReadAsTheAPIServerStoresThem(t *testing.T) {
	bin := buildListTestBinary(t)
	dir := linterCases + "yaml11-keys"
	want := []string{
		"yaml11-keys/nodefeature.yaml:14:11 error NFD002",
		"yaml11-keys/rules.yaml:12:7 error NFD002",
		"yaml11-keys/rules.yaml:15:7 error NFD002",
		"yaml11-keys/rules.yaml:19:9 error NFD002",
		"yaml11-keys/rules.yaml:30:26 error NFD002",
	}
	outs, rendered := validateAndRender(t, bin, dir)
	for _, cmd := range []string{"validate", "render"} {
		var got []string
		for _, f := range findings(outs[cmd]) {
			if strings.HasSuffix(f, " NFD002") {
				got = append(got, f)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s findings (-want +got):\n%s\noutput:\n%s", cmd, diff, outs[cmd])
		}
		if !strings.Contains(outs[cmd], `the unquoted key on, which kubectl and Helm (YAML 1.1) send as a boolean, is stored by the API server as the key "true", which nfd-fn uses too: quote it ("on")`) {
			t.Errorf("%s: no message naming the key the API server stores and how to keep it:\n%s", cmd, outs[cmd])
		}
	}
	for _, label := range []string{"feature.node.kubernetes.io/true: x", "feature.node.kubernetes.io/off: kept"} {
		if !strings.Contains(rendered, label) {
			t.Errorf("render: no label %q: the rule is used with the keys the API server stores:\n%s", label, rendered)
		}
	}
}

// validateAndRender runs validate and render on dir, each expected to
// exit 1 (the cases hold errors), and returns each command's findings
// (validate's stdout, render's stderr) and render's output.
func validateAndRender(t *testing.T, bin, dir string) (findingsOf map[string]string, rendered string) {
	t.Helper()
	findingsOf = map[string]string{}
	for _, cmd := range []string{"validate", "render"} {
		run := runBinary(t, bin, nil, cmd, dir)
		if run.code != 1 {
			t.Errorf("%s: exit %d, want 1; stderr:\n%s", cmd, run.code, run.stderr)
		}
		findingsOf[cmd] = run.stdout
		if cmd == "render" {
			findingsOf[cmd], rendered = run.stderr, run.stdout
		}
	}
	return findingsOf, rendered
}
