package e2e

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeRelease writes what a release publishes for this machine into a
// directory: nfd-fn_<version>_<os>_<arch>.tar.gz holding the test's
// nfd-fn, and checksums.txt naming it (with sum, or its true sha256 when
// sum is empty). It returns the release URL's stand-in: the directory
// holding <version>/.
func fakeRelease(t *testing.T, sum string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, e2eVersion)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("nfd-fn_%s_%s_%s.tar.gz", strings.TrimPrefix(e2eVersion, "v"), runtime.GOOS, runtime.GOARCH)
	bin, err := os.ReadFile(filepath.Join(binDir, "nfd-fn"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	err = tw.WriteHeader(&tar.Header{Name: "nfd-fn", Mode: 0o755, Size: int64(len(bin)), Typeflag: tar.TypeReg})
	if err == nil {
		_, err = tw.Write(bin)
	}
	for _, c := range []interface{ Close() error }{tw, gz, f} {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if sum == "" {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		s := sha256.Sum256(b)
		sum = hex.EncodeToString(s[:])
	}
	checksums := fmt.Sprintf("%s  %s\n%s  nfd-fn_%s_plan9_amd64.tar.gz\n", sum, name, strings.Repeat("0", 64), e2eVersion)
	if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(checksums), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + root
}

// localAction is a runner for the repository's action.yml in work, with
// the release URL pointing at release.
func localAction(t *testing.T, work, release string, github map[string]string) actionRunner {
	t.Helper()
	requireTool(t, "bash")
	requireTool(t, "curl")
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	env := commandEnv(map[string]string{"NFD_FN_RELEASE_URL": release})
	// The job's PATH has no nfd-fn: the Action installs it.
	env = withoutBinDir(env)
	return actionRunner{dir: root, github: github, env: env, work: work}
}

// withoutBinDir takes the test binary's directory off env's PATH.
func withoutBinDir(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			kv = "PATH=" + strings.TrimPrefix(v, binDir+string(os.PathListSeparator))
		}
		out = append(out, kv)
	}
	return out
}

// TestActionInstallsAVerifiedReleaseAndUploadsSARIF is issue 38's point 3:
// the Action with a version installs that release's archive after checking
// it against checksums.txt, validates the paths, annotates the findings
// (-o github), writes the report to the step summary and SARIF for the
// upload step, and fails the job on the broken rule after the upload.
func TestActionInstallsAVerifiedReleaseAndUploadsSARIF(t *testing.T) {
	work := t.TempDir()
	copyPath(t, filepath.Join(examplesRoot, "broken-rule", "rules"), filepath.Join(work, "rules"))
	res := localAction(t, work, fakeRelease(t, ""), nil).run(t, map[string]string{
		"version": e2eVersion, "command": "validate", "paths": "rules", "sarif": "true",
	})
	if res.failed != "Fail on nfd-fn's verdict" || res.outputs["exit-code"] != "1" {
		t.Fatalf("the broken rule should fail the last step with exit code 1; failed %q, outputs %v\n%s", res.failed, res.outputs, res.stderr)
	}
	if res.outputs["version"] != e2eVersion {
		t.Errorf("installed version %q, want %s", res.outputs["version"], e2eVersion)
	}
	upload, ok := res.uses["github/codeql-action/upload-sarif@v3"]
	if !ok || upload["sarif_file"] != res.outputs["sarif-file"] {
		t.Fatalf("the SARIF upload should get the run's sarif-file %q; steps %v, upload %v", res.outputs["sarif-file"], res.ran, upload)
	}
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	b, err := os.ReadFile(upload["sarif_file"])
	if err != nil || json.Unmarshal(b, &sarif) != nil || sarif.Version != "2.1.0" || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) == 0 {
		t.Errorf("the SARIF file is not SARIF 2.1.0 with the findings (%v):\n%s", err, b)
	}
	if !strings.Contains(res.summary, "### nfd-fn validate: exit 1") || !strings.Contains(res.summary, "broken.yaml") {
		t.Errorf("the step summary lacks the report:\n%s", res.summary)
	}
	if want := "::error file=rules/broken.yaml,line=15,col=30,title=nfd-fn NFD003 unknown-field::"; !strings.Contains(res.log, want) {
		t.Errorf("the log lacks the annotation %q (validate -o github):\n%s", want, res.log)
	}
}

// TestActionRefusesAnArchiveThatMissesItsChecksum is issue 38's point 3
// (checksums verified): an archive whose sha256 is not the one
// checksums.txt gives is not installed, and nothing runs after.
func TestActionRefusesAnArchiveThatMissesItsChecksum(t *testing.T) {
	work := t.TempDir()
	res := localAction(t, work, fakeRelease(t, strings.Repeat("ab", 32)), nil).run(t, map[string]string{
		"version": e2eVersion, "paths": ".",
	})
	if res.failed != "Install nfd-fn" || len(res.ran) != 1 || !strings.Contains(res.stderr, "does not match its sha256") {
		t.Errorf("want the install step to refuse the archive; failed %q, ran %v\n%s", res.failed, res.ran, res.stderr)
	}
}

// TestActionPlansFromSourceAndCommentsOnThePullRequest is issue 38's
// point 3 (plan, plan-comment, building from source): with no version the
// Action builds nfd-fn from its own checkout, plans the pull request's rule
// change against the base branch, puts the plan in the step summary and
// posts it with gh on the pull request; changes (exit 2) do not fail.
func TestActionPlansFromSourceAndCommentsOnThePullRequest(t *testing.T) {
	repo := planRepository(t)
	fakeBin := t.TempDir()
	ghLog := filepath.Join(fakeBin, "gh.log")
	gh := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + ghLog + "\nwhile [ $# -gt 1 ]; do shift; done\ncat \"$1\" >> " + ghLog + "\n"
	if err := os.WriteFile(filepath.Join(fakeBin, "gh"), []byte(gh), 0o755); err != nil {
		t.Fatal(err)
	}
	runner := localAction(t, repo, "file:///nonexistent", map[string]string{"event.pull_request.number": "7", "token": "t0ken"})
	runner.env = prependPath(runner.env, []string{fakeBin})
	res := runner.run(t, map[string]string{
		"command": "plan", "base": "main", "paths": "rules snapshot.yaml",
		"args": "--workloads workloads --config config.yaml", "plan-comment": "true",
	})
	if res.failed != "" || res.outputs["exit-code"] != "2" {
		t.Fatalf("plan with changes: failed %q, outputs %v\n%s", res.failed, res.outputs, res.stderr)
	}
	want, err := os.ReadFile("../pkg/plan/testdata/rule-change.markdown.golden")
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := os.ReadFile(res.outputs["plan-file"])
	if string(plan) != string(want) {
		t.Errorf("the plan differs from pkg/plan/testdata/rule-change.markdown.golden:\n%s", plan)
	}
	posted, _ := os.ReadFile(ghLog)
	wantPost := "pr comment 7 --edit-last --create-if-none --body-file " + res.outputs["plan-file"] + "\n" + string(want)
	if string(posted) != wantPost {
		t.Errorf("gh was called with:\n%s\nwant:\n%s", posted, wantPost)
	}
	if !strings.Contains(res.summary, "### nfd-fn plan") || !strings.Contains(res.summary, string(want)) {
		t.Errorf("the step summary lacks the plan:\n%s", res.summary)
	}
}

// TestActionRunsRuleTestsWithAnnotations is the Action's `command: test`
// (issue 38 point 3 with issue 36's `test -o github`) on the rule-tests
// example: the suite passes, with its text report in the step summary;
// with a rule broken by hand, the log carries the ::error workflow command
// at the RuleTest's expectation (an annotation on the test file's line)
// and the last step fails the job.
func TestActionRunsRuleTestsWithAnnotations(t *testing.T) {
	work := checksRepository(t)
	runner := localAction(t, work, fakeRelease(t, ""), nil)
	inputs := map[string]string{"version": e2eVersion, "command": "test", "paths": "tests", "args": "--coverage", "sarif": "true"}
	res := runner.run(t, inputs)
	if res.failed != "" || res.outputs["exit-code"] != "0" || !strings.Contains(res.summary, "PASS  gpu-rules") {
		t.Fatalf("the suite should pass into the summary: failed %q, outputs %v\n%s%s", res.failed, res.outputs, res.summary, res.stderr)
	}
	if res.outputs["sarif-file"] != "" || strings.Contains(res.log, "::error") {
		t.Errorf("a passing test run writes no SARIF and no error annotation: outputs %v\n%s", res.outputs, res.log)
	}
	breakGDSRule(t, work)
	res = runner.run(t, inputs)
	want := "::error file=tests/gpu.ruletest.yaml,line=17,title=nfd-fn test%3A gpu-rules::node dgx-h100-01: label nvidia.com/gds.capable: expected \"true\", got absent"
	if res.failed != "Fail on nfd-fn's verdict" || res.outputs["exit-code"] != "1" || !strings.Contains(res.log, want) {
		t.Errorf("with a broken rule: failed %q, outputs %v, want the last step failing and %q in the log:\n%s", res.failed, res.outputs, want, res.log)
	}
	if !strings.Contains(res.summary, "### nfd-fn test: exit 1") || !strings.Contains(res.summary, "FAIL") {
		t.Errorf("the step summary lacks the failing report:\n%s", res.summary)
	}
}
