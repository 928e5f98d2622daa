// Package precommittest checks nfd-fn's pre-commit hook end to end: the
// real pre-commit installs the hook from a git repository holding this
// source tree (language golang) and runs it on a good and a bad rule file.
//
// Installing the hook builds nfd-fn, so the tests share what is slow to
// make (testkit.Shared, removed by testkit.Main): one snapshot of the
// source tree (hookRepo), and one PRE_COMMIT_HOME (runPreCommit), where
// pre-commit installs the hook of that snapshot's commit once, the first
// time a test runs it, and every later run reuses it. The install builds
// under testkit.BuildEnv, so it compiles nothing another package's tests
// already compiled for testkit.Binary. A new test writes its own work
// repository (t.TempDir) and points its .pre-commit-config.yaml at
// hookRepo(t) and its commit.
package precommittest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

const goodRule = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: good
spec:
  rules:
    - name: intel-nic
      labels:
        intel-nic: "true"
      matchFeatures:
        - feature: pci.device
          matchExpressions:
            vendor: {op: In, value: ["8086"]}
`

const badRule = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: bad
spec:
  rules:
    - name: intel-nic
      labels:
        intel-nic: "true"
      matchFeatures:
        - feature: pci.device
          matchExpressions:
            vendor: {op: in, value: ["8086"]}
            class: {op: InRegexp, value: ["^(02"]}
`

// wantBad are the diagnostics the hook must print for bad.yaml, with the
// line and column of the offending nodes.
var wantBad = []string{
	`bad.yaml:13:26: error: NodeFeatureRule/bad spec.rules[0].matchFeatures[0].matchExpressions.vendor.op: the API server of NFD v0.19.0 refuses this NodeFeatureRule whole`,
	`(did you mean "In"?) [NFD300]`,
	"bad.yaml:14:42: error: NodeFeatureRule/bad spec.rules[0].matchFeatures[0].matchExpressions.class.value: op InRegexp needs regular expressions, and \"^(02\" in [^(02] does not compile: error parsing regexp: missing closing ): `^(02`",
}

// TestMain removes the shared snapshot and pre-commit home afterwards.
func TestMain(m *testing.M) { testkit.Main(m) }

func TestPreCommitHookPassesGoodAndFailsBadRules(t *testing.T) {
	work := hookRepository(t, "nfd-fn-validate")
	writeFile(t, work, "good.yaml", goodRule)
	writeFile(t, work, "bad.yaml", badRule)
	git(t, work, "add", ".")

	if out, code := preCommit(t, work, "good.yaml"); code != 0 {
		t.Fatalf("hook failed on good.yaml (exit %d):\n%s", code, out)
	}
	out, code := preCommit(t, work, "bad.yaml")
	if code == 0 {
		t.Fatalf("hook passed bad.yaml:\n%s", out)
	}
	for _, want := range wantBad {
		if !strings.Contains(out, want) {
			t.Errorf("hook output lacks %q:\n%s", want, out)
		}
	}
}

// hookRepository is a fresh git repository whose .pre-commit-config.yaml
// installs the hook id from a snapshot of this source tree; it skips the
// test when pre-commit is not installed.
func hookRepository(t *testing.T, id string) string {
	t.Helper()
	requirePreCommit(t)
	repo := hookRepo(t)
	work := t.TempDir()
	git(t, work, "init", "-q")
	writeFile(t, work, ".pre-commit-config.yaml", "repos:\n  - repo: "+repo+"\n    rev: "+git(t, repo, "rev-parse", "HEAD")+"\n    hooks:\n      - id: "+id+"\n")
	return work
}

// preCommit runs the hook on one file and returns its output and exit code.
func preCommit(t *testing.T, dir, file string) (string, int) {
	t.Helper()
	return runPreCommit(t, dir, "run", "--files", file)
}

// runPreCommit runs pre-commit with args in dir, with the package's one
// PRE_COMMIT_HOME (hooks installed once) and the module cache shared so
// that the hook builds offline.
func runPreCommit(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	home := testkit.Shared(t, "pre-commit home", func(string) error { return nil })
	cmd := exec.Command("pre-commit", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "PRE_COMMIT_HOME="+home, "GOMODCACHE="+goEnv(t, "GOMODCACHE")), testkit.BuildEnv("-mod=mod")...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("running pre-commit: %v\n%s", err, out)
	}
	return string(out), 0
}

// hookRepo is a repository holding one commit of the current source tree
// (tracked and new files, as git sees them), so the hook is built from
// exactly the code under test; made once for the package's tests.
func hookRepo(t *testing.T) string {
	t.Helper()
	return testkit.Shared(t, "hook repository", snapshotSource)
}

// snapshotSource commits the current source tree into dst, a new
// repository.
func snapshotSource(dst string) error {
	root, err := filepath.Abs("../..")
	if err != nil {
		return err
	}
	list, err := gitOutput(root, "ls-files", "-co", "--exclude-standard", "-z")
	if err != nil {
		return err
	}
	for _, f := range strings.Split(list, "\x00") {
		if f == "" || strings.HasPrefix(f, "testdata/oracle-") {
			continue
		}
		if err := copyEntry(filepath.Join(root, f), filepath.Join(dst, f)); err != nil {
			return err
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-qm", "snapshot"}} {
		if _, err := gitOutput(dst, args...); err != nil {
			return err
		}
	}
	return nil
}

// copyEntry copies one file of the tree: symbolic links stay links,
// regular files are copied, anything else (gone, a directory) is skipped.
func copyEntry(src, dst string) error {
	info, err := os.Lstat(src)
	if err != nil || info.IsDir() {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if info.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	if !info.Mode().IsRegular() {
		return nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, info.Mode().Perm()|0o200)
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitOutput(dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gitOutput runs git with args in dir and returns its output, trimmed.
func gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// requirePreCommit skips the test where pre-commit is missing (a failure
// under NFD_FN_E2E, as in CI) or with -short: each test builds nfd-fn
// through pre-commit.
func requirePreCommit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("NFD_FN_E2E") != "" {
			t.Fatal("pre-commit is not installed (apt-get install -y pre-commit)")
		}
		t.Skip("pre-commit is not installed; set NFD_FN_E2E=1 to make this a failure")
	}
	if testing.Short() {
		t.Skip("builds nfd-fn through pre-commit; skipped with -short")
	}
}
