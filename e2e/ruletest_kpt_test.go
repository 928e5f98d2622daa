package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kptSuites is a package whose RuleTests each name their own inputs,
// nfdVersion and config (fn's mode test tests hold its story).
const kptSuites = "../testdata/ruletest/kpt"

// TestRuleTestOwnSettingsApplyUnderKpt runs `kpt fn eval --exec nfd-fn
// -- mode=test` on a package whose RuleTests pass only when each renders
// its own inputs with its own nfdVersion and config; then a RuleTest
// naming an input that is no file of the package fails the run with an
// error result at that field; its message names no line, since kpt hands
// the items over re-written (a line would be the ResourceList's), nor does
// a failed expectation's.
func TestRuleTestOwnSettingsApplyUnderKpt(t *testing.T) {
	kpt := requireTool(t, "kpt")
	work := t.TempDir()
	pkg := filepath.Join(work, "suites")
	copyPath(t, kptSuites, pkg)
	kptfile := "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: suites\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n"
	if err := os.WriteFile(filepath.Join(pkg, "Kptfile"), []byte(kptfile), 0o644); err != nil {
		t.Fatal(err)
	}
	eval := func(results string) (string, string, int) {
		_, stderr, code := run(t, work, commandEnv(nil), nil, kpt, "fn", "eval", "suites", "--exec", "nfd-fn", "--results-dir", results, "--", "mode=test")
		text, _ := os.ReadFile(filepath.Join(results, "results.yaml"))
		return string(text), stderr, code
	}
	results, stderr, code := eval(filepath.Join(work, "results-1"))
	for _, want := range []string{
		"RuleTest as-v0.17: 3 of 3 expectations passed",
		"RuleTest as-v0.19: 3 of 3 expectations passed",
		"RuleTest taints-on: 2 of 2 expectations passed",
		"RuleTest nodes-alone: 2 of 2 expectations passed",
	} {
		if !strings.Contains(results, want) {
			t.Errorf("no %q in the results", want)
		}
	}
	if code != 0 || strings.Contains(results, "severity: error") {
		t.Fatalf("exit %d, want 0 and no error result\n%s\n%s", code, results, stderr)
	}
	stray := "apiVersion: nfd-fn.dev/v1alpha1\nkind: RuleTest\nmetadata:\n  name: stray\nspec:\n  inputs:\n    - ../rules\n    - ../../outside\n"
	if err := os.WriteFile(filepath.Join(pkg, "tests", "stray.ruletest.yaml"), []byte(stray), 0o644); err != nil {
		t.Fatal(err)
	}
	v019 := filepath.Join(pkg, "tests", "v019.ruletest.yaml")
	text, err := os.ReadFile(v019)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(v019, []byte(strings.Replace(string(text), `k6: "true"`, `k6: "false"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	results, stderr, code = eval(filepath.Join(work, "results-2"))
	failed := `message: 'node a: label feature.node.kubernetes.io/k6: expected "false", got "true"'`
	if !strings.Contains(results, failed) {
		t.Errorf("no error result %s (no line: the item kpt hands over is re-written)\n%s", failed, results)
	}
	want := "spec.inputs[1]: ../../outside: no item of the package is at ../outside"
	if code != 1 || !strings.Contains(results, "message: '"+want) || !strings.Contains(results, "path: spec.inputs[1]") {
		t.Errorf("exit %d, want 1 and an error result at spec.inputs[1] with %q\n%s\n%s", code, want, results, stderr)
	}
}
