package precommittest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// upstream is the repository URL the README's pre-commit block names.
const upstream = "https://github.com/nfd-fn/nfd-fn"

// readmeConfig is the README's .pre-commit-config.yaml block.
func readmeConfig(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(repos:\n.*?)```").FindStringSubmatch(string(b))
	if m == nil || !strings.Contains(m[1], "repo: "+upstream) {
		t.Fatal("README.md has no .pre-commit-config.yaml block naming " + upstream)
	}
	return m[1]
}

// TestPreCommitPinsACommitUntilAReleaseIsTagged is issue 26's point 7 with
// the real pre-commit: in a hook repository without tags (as nfd-fn's is
// until v0.1.0 is tagged) `rev: v0.1.0` fails; the README's block, with
// the command the README gives (pre-commit autoupdate --bleeding-edge
// --freeze --repo URL), pins the latest commit, and the hook then runs.
func TestPreCommitPinsACommitUntilAReleaseIsTagged(t *testing.T) {
	requirePreCommit(t)
	config := readmeConfig(t)
	hookRepo := hookRepo(t)
	if tags := git(t, hookRepo, "tag", "--list"); tags != "" {
		t.Fatalf("the snapshot has tags %q", tags)
	}
	work := t.TempDir()
	git(t, work, "init", "-q")
	writeFile(t, work, "good.yaml", goodRule)
	git(t, work, "add", "good.yaml")

	tagged := regexp.MustCompile(`(?m)^(\s*rev:\s*)\S+`).ReplaceAllString(config, "${1}v0.1.0")
	writeFile(t, work, ".pre-commit-config.yaml", strings.ReplaceAll(tagged, upstream, hookRepo))
	if out, code := preCommit(t, work, "good.yaml"); code == 0 {
		t.Fatalf("rev: v0.1.0 worked in a repository without tags:\n%s", out)
	}

	writeFile(t, work, ".pre-commit-config.yaml", strings.ReplaceAll(config, upstream, hookRepo))
	if out, code := runPreCommit(t, work, "autoupdate", "--bleeding-edge", "--freeze", "--repo", hookRepo); code != 0 {
		t.Fatalf("pre-commit autoupdate --bleeding-edge --freeze: exit %d\n%s", code, out)
	}
	pinned, err := os.ReadFile(filepath.Join(work, ".pre-commit-config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	head := git(t, hookRepo, "rev-parse", "HEAD")
	if !strings.Contains(string(pinned), "rev: "+head) {
		t.Fatalf("autoupdate did not pin the commit %s:\n%s", head, pinned)
	}
	if out, code := preCommit(t, work, "good.yaml"); code != 0 {
		t.Fatalf("the hook pinned to a commit failed (exit %d):\n%s", code, out)
	}
}
