package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// ruleTestRun runs `nfd-fn args...` (the binary built once) in dir.
type ruleTestRun func(t *testing.T, dir string, args ...string) (stdout, stderr string, code int)

// TestRuleTest drives the built binary as CI runs it over RuleTests on
// the vendors' rules and a cluster's export (testdata/ruletest, whose
// inputs are testdata/cluster-export); one subtest per point of the
// command, the binary built once.
func TestRuleTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	run := func(t *testing.T, dir string, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		return testkit.Exec(t, cmd, nil)
	}
	for name, f := range map[string]func(*testing.T, ruleTestRun){
		"passes-over-vendor-rules":         ruleTestPassesOverVendorRules,
		"failure-names-file-line-node-key": ruleTestFailureNamesFileLineNodeKey,
		"report-formats":                   ruleTestReportFormats,
		"exit-codes":                       ruleTestExitCodes,
		"update-writes-snapshot-and-diff":  ruleTestUpdateWritesSnapshot,
		"coverage-and-min-coverage":        ruleTestCoverage,
		"init-writes-a-passing-test":       ruleTestInit,
	} {
		t.Run(name, func(t *testing.T) { f(t, run) })
	}
}

// ruletestData is the directory the fixtures' paths are relative to.
const ruletestData = "../testdata"

// The vendors' rules over a cluster's export meet what NFD v0.19.0 gives
// those nodes (cluster-export's expected.json): exit 0.
func ruleTestPassesOverVendorRules(t *testing.T, run ruleTestRun) {
	stdout, stderr, code := run(t, ruletestData, "test", "ruletest/pass")
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", code, stdout, stderr)
	}
	golden.Check(t, "../testdata/ruletest/pass.golden", []byte(stdout))
}

// Every failed expectation names the test file and line, the node, the
// key, the expected and the got value; a label expected but absent
// carries the explain tree of the rule that should have set it; exit 1.
func ruleTestFailureNamesFileLineNodeKey(t *testing.T, run ruleTestRun) {
	stdout, _, code := run(t, ruletestData, "test", "ruletest/fail")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stdout)
	}
	for _, want := range []string{
		`ruletest/fail/vendors-wrong.ruletest.yaml:17: node mi300x-node-01: label nvidia.com/gds.capable: expected "true", got absent`,
		`"kernel-module-nvidia_fs": not matched`,
		`nvidia_fs Exists: false (saw absent)`,
		`vendors-wrong.ruletest.yaml:18: node mi300x-node-01: label feature.node.kubernetes.io/amd-gpu-mi300x: expected "false", got "true"`,
		`vendors-wrong.ruletest.yaml:24: group node-feature-discovery/gpu-nodes: members: expected [dgx-h100-01], got [dgx-h100-01, mi300x-node-01]`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	golden.Check(t, "../testdata/ruletest/fail.golden", []byte(stdout))
}

// -o json, junit, tap and github report the same failures in the shapes
// CI systems read (golden files).
func ruleTestReportFormats(t *testing.T, run ruleTestRun) {
	for _, format := range []string{"json", "junit", "tap", "github"} {
		t.Run(format, func(t *testing.T) {
			stdout, stderr, code := run(t, ruletestData, "test", "-o", format, "ruletest/fail")
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, stderr)
			}
			golden.Check(t, "../testdata/ruletest/fail."+format+".golden", []byte(stdout))
		})
	}
}

// 2 on bad usage; 1 when there is nothing to run or a test file is
// malformed (named at its line).
func ruleTestExitCodes(t *testing.T, run ruleTestRun) {
	dir := t.TempDir()
	bad := "apiVersion: nfd-fn.dev/v1alpha1\nkind: RuleTest\nmetadata: {name: typo}\nspec:\n  inputs: [.]\n  expect:\n    nodes:\n      - node: a\n        lables: {x: y}\n"
	testkit.WriteFiles(t, dir, map[string]string{"bad/t.yaml": bad, "empty/none.yaml": "a: b\n"})
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown-flag", []string{"--nope"}, 2, "flag provided but not defined"},
		{"unknown-output", []string{"-o", "xml", "bad"}, 2, `unknown --output "xml"`},
		{"bad-min-coverage", []string{"--min-coverage", "120", "bad"}, 2, "--min-coverage 120"},
		{"missing-path", []string{"nowhere"}, 2, "nowhere"},
		{"no-tests", []string{"empty"}, 1, "no RuleTest found"},
		{"unknown-field-at-its-line", []string{"bad"}, 1, "bad/t.yaml:9: spec.expect.nodes[0].lables: unknown field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := run(t, dir, append([]string{"test"}, c.args...)...)
			if code != c.code || !strings.Contains(stdout+stderr, c.want) {
				t.Errorf("exit %d, want %d, and output with %q:\n%s%s", code, c.code, c.want, stdout, stderr)
			}
		})
	}
}

// copyRuleTest copies the passing suite into a new directory beside a
// copy of the inputs, and returns the directory and the suite's path in it.
func copyRuleTest(t *testing.T, extra string) (dir, suite string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "testdata"), os.DirFS("../testdata/cluster-export")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "groups"), os.DirFS("../testdata/ruletest/groups")); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("../testdata/ruletest/pass/vendors.ruletest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer("../../cluster-export/", "testdata/", "../groups", "groups").Replace(string(text)) + extra
	suite = filepath.Join(dir, "vendors.ruletest.yaml")
	if err := os.WriteFile(suite, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, suite
}

// --update writes the snapshot (the labels-json view); a later run
// passes, and a render that changes fails with a per-node diff.
func ruleTestUpdateWritesSnapshot(t *testing.T, run ruleTestRun) {
	dir, _ := copyRuleTest(t, "    snapshot: vendors.snapshot.json\n")
	if stdout, _, code := run(t, dir, "test"); code != 1 || !strings.Contains(stdout, "no such file (nfd-fn test --update writes it)") {
		t.Fatalf("without a snapshot: exit %d, want 1 and a hint to --update\n%s", code, stdout)
	}
	if stdout, stderr, code := run(t, dir, "test", "--update"); code != 0 {
		t.Fatalf("--update: exit %d\n%s%s", code, stdout, stderr)
	}
	snap, err := os.ReadFile(filepath.Join(dir, "vendors.snapshot.json"))
	if err != nil || !strings.Contains(string(snap), `"nvidia.com/gds.capable": "true"`) {
		t.Fatalf("snapshot not written as the labels-json view: %v\n%.400s", err, snap)
	}
	if stdout, _, code := run(t, dir, "test"); code != 0 {
		t.Fatalf("after --update: exit %d\n%s", code, stdout)
	}
	changed := strings.Replace(string(snap), `"nvidia.com/gds.capable": "true"`, `"nvidia.com/gds.capable": "false"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "vendors.snapshot.json"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := run(t, dir, "test")
	for _, want := range []string{"vendors.ruletest.yaml:35: snapshot vendors.snapshot.json: the render differs on 1 node", "node dgx-h100-01:",
		`- label nvidia.com/gds.capable="false"`, `+ label nvidia.com/gds.capable="true"`} {
		if code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, want 1 and %q in:\n%s", code, want, stdout)
		}
	}
}

// --coverage lists the rules no test node matched at their files and
// lines; --min-coverage fails below the percentage, passes above it.
func ruleTestCoverage(t *testing.T, run ruleTestRun) {
	stdout, _, code := run(t, ruletestData, "test", "--coverage", "ruletest/pass")
	for _, want := range []string{"coverage: 58.1% of 31 rules matched on a test node",
		`cluster-export/rules/amd/gpu-and-nic.yaml:28:5: NodeFeatureRule amd-gpu-label-nfd-rule spec.rules[0] rule "amd-vgpu" matched no test node`,
		`ruletest/groups/gpu-nodes.yaml:18:7: NodeFeatureGroup node-feature-discovery/gpu-nodes spec.featureGroupRules[2] rule "habana-gaudi" matched no test node`} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("--coverage: exit %d, want 0 and %q in:\n%s", code, want, stdout)
		}
	}
	if _, _, code := run(t, ruletestData, "test", "--min-coverage", "50", "ruletest/pass"); code != 0 {
		t.Errorf("--min-coverage 50 at 58.1%%: exit %d, want 0", code)
	}
	stdout, _, code = run(t, ruletestData, "test", "--min-coverage", "60", "-o", "junit", "ruletest/pass")
	if code != 1 || !strings.Contains(stdout, `coverage 58.1% of 31 rules is below the minimum 60%`) {
		t.Errorf("--min-coverage 60 at 58.1%%: exit %d, want 1 and a failing coverage testcase:\n%s", code, stdout)
	}
}

// --init DIR writes a RuleTest from the render of DIR's objects (under
// --config's settings, which it names) that passes as written, and
// refuses to overwrite it.
func ruleTestInit(t *testing.T, run ruleTestRun) {
	dir := t.TempDir()
	for _, d := range []string{"rules", "groups"} {
		from := map[string]string{"rules": "../testdata/cluster-export/rules", "groups": "../testdata/ruletest/groups"}[d]
		if err := os.CopyFS(filepath.Join(dir, "pkg", d), os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	export, err := os.ReadFile("../testdata/cluster-export/snapshot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile("../testdata/cluster-export/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, dir, map[string]string{"pkg/snapshot.yaml": string(export), "pkg/config.yaml": string(config)})
	if stdout, stderr, code := run(t, dir, "test", "--init", "pkg", "--config", "pkg/config.yaml"); code != 0 || !strings.Contains(stdout, "wrote pkg/ruletest.yaml") {
		t.Fatalf("--init: exit %d\n%s%s", code, stdout, stderr)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "pkg", "ruletest.yaml"))
	for _, want := range []string{"kind: RuleTest", "config: config.yaml", "node: dgx-h100-01", `nvidia.com/gds.capable: "true"`, "members: [dgx-h100-01, mi300x-node-01]", "check: NFD020"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("ruletest.yaml lacks %q:\n%.2000s", want, text)
		}
	}
	if stdout, _, code := run(t, dir, "test", "pkg"); code != 0 {
		t.Errorf("the new test: exit %d, want 0\n%s", code, stdout)
	}
	if _, stderr, code := run(t, dir, "test", "--init", "pkg"); code != 1 || !strings.Contains(stderr, "exists") {
		t.Errorf("a second --init: exit %d, want 1 and a refusal\n%s", code, stderr)
	}
}

// nfd-fn schema ruletest prints docs/schema/ruletest.json, the schema
// editors are pointed at.
func ruleTestSchema(t *testing.T, run ruleTestRun) {
	stdout, stderr, code := run(t, ".", "schema", "ruletest")
	want, err := os.ReadFile("../docs/schema/ruletest.json")
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || stdout != string(want) {
		t.Errorf("exit %d; the schema printed differs from docs/schema/ruletest.json\n%s", code, stderr)
	}
}

// Suites over different inputs and releases each get their own render
// and report in file order; one failing fails the run.
func ruleTestTwoSources(t *testing.T, run ruleTestRun) {
	stdout, _, code := run(t, ruletestData, "test", "-o", "json", "ruletest")
	var rep struct {
		Passed bool
		Suites []struct {
			Name   string
			Passed bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if code != 1 || rep.Passed || len(rep.Suites) != 2 || rep.Suites[0].Name != "vendor-rules-wrong" || rep.Suites[0].Passed ||
		rep.Suites[1].Name != "vendor-rules" || !rep.Suites[1].Passed {
		t.Errorf("exit %d, report %+v; want 1, the failing suite (fail/) then the passing one (pass/)", code, rep)
	}
}
