package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// planFixture holds the snapshot, the rules before (base/) and after
// (rules/) a change, the workloads and the functionConfig.
const planFixture = "../testdata/plan/stale-labels"

// planScript is the script the CI recipes in docs/ci call.
const planScript = "../docs/ci/nfd-fn-plan.sh"

// TestPlanCIRecipeOnAPullRequest runs what docs/ci's GitHub Actions
// workflow and GitLab CI job run, on a repository with two commits: main
// holds the base rules, the branch the changed ones. The comment it
// prints is the rule-change plan pkg/plan's golden file holds; planned
// against its own commit, nothing changes.
func TestPlanCIRecipeOnAPullRequest(t *testing.T) {
	repo := planRepository(t)
	args := []string{"main", "rules", "snapshot.yaml", "--workloads", "workloads", "--config", "config.yaml"}
	stdout, stderr, code := runPlanScript(t, repo, args...)
	if code != 2 {
		t.Fatalf("exit %d, want 2 (changes)\nstderr:\n%s", code, stderr)
	}
	want, err := os.ReadFile("../pkg/plan/testdata/rule-change.markdown.golden")
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(want) {
		t.Errorf("comment differs from pkg/plan/testdata/rule-change.markdown.golden:\n%s", stdout)
	}
	if list := git(t, repo, "worktree", "list"); strings.Count(list, "\n") != 1 {
		t.Errorf("the base worktree was left behind:\n%s", list)
	}
	args[0] = "HEAD"
	stdout, stderr, code = runPlanScript(t, repo, args...)
	if code != 0 || !strings.Contains(stdout, "**No changes.**") {
		t.Errorf("against its own commit: exit %d, want 0\n%s%s", code, stdout, stderr)
	}
}

// runPlanScript runs the script the CI recipes call in repo with args,
// as a CI job does: with sh, and git on the PATH.
func runPlanScript(t *testing.T, repo string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	sh := requireTool(t, "sh")
	script, err := filepath.Abs(planScript)
	if err != nil {
		t.Fatal(err)
	}
	return run(t, repo, commandEnv(nil), nil, sh, append([]string{script}, args...)...)
}

// planRepository makes a git repository whose main branch has the base
// rules and whose checked-out branch "change" has the changed rules.
func planRepository(t *testing.T) string {
	t.Helper()
	requireTool(t, "git")
	repo := t.TempDir()
	for _, name := range []string{"snapshot.yaml", "config.yaml", "workloads"} {
		copyPath(t, filepath.Join(planFixture, name), filepath.Join(repo, name))
	}
	copyPath(t, filepath.Join(planFixture, "base"), filepath.Join(repo, "rules"))
	git(t, repo, "init", "--quiet", "--initial-branch=main")
	git(t, repo, "add", "--all")
	git(t, repo, "commit", "--quiet", "--message=base rules")
	git(t, repo, "checkout", "--quiet", "-b", "change")
	if err := os.RemoveAll(filepath.Join(repo, "rules")); err != nil {
		t.Fatal(err)
	}
	copyPath(t, filepath.Join(planFixture, "rules"), filepath.Join(repo, "rules"))
	git(t, repo, "add", "--all")
	git(t, repo, "commit", "--quiet", "--message=only data-centre GPUs, tainted")
	return repo
}

// copyPath copies a file or a directory tree.
func copyPath(t *testing.T, from, to string) {
	t.Helper()
	info, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if info.IsDir() {
		err = os.CopyFS(to, os.DirFS(from))
	} else {
		var data []byte
		if data, err = os.ReadFile(from); err == nil {
			err = os.WriteFile(to, data, 0o644)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}
