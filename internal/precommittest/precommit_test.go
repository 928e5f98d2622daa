// Package precommittest checks nfd-fn's pre-commit hook end to end: the
// real pre-commit installs the hook from a git repository holding this
// source tree (language golang) and runs it on a good and a bad rule file.
package precommittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	hookRepo := snapshotSource(t)
	work := t.TempDir()
	git(t, work, "init", "-q")
	writeFile(t, work, ".pre-commit-config.yaml", "repos:\n  - repo: "+hookRepo+"\n    rev: "+git(t, hookRepo, "rev-parse", "HEAD")+"\n    hooks:\n      - id: "+id+"\n")
	return work
}

// preCommit runs the hook on one file and returns its output and exit code.
func preCommit(t *testing.T, dir, file string) (string, int) {
	t.Helper()
	return runPreCommit(t, dir, "run", "--files", file)
}

// runPreCommit runs pre-commit with args in dir, with the module cache
// shared so that the hook builds offline.
func runPreCommit(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("pre-commit", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PRE_COMMIT_HOME="+filepath.Join(dir, ".cache"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("running pre-commit: %v\n%s", err, out)
	}
	return string(out), 0
}

// snapshotSource commits the current source tree (tracked and new files,
// as git sees them) into a fresh repository, so the hook is built from
// exactly the code under test.
func snapshotSource(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := strings.Split(git(t, root, "ls-files", "-co", "--exclude-standard", "-z"), "\x00")
	dst := t.TempDir()
	for _, f := range files {
		if f == "" || strings.HasPrefix(f, "testdata/oracle-") {
			continue
		}
		copyEntry(t, filepath.Join(root, f), filepath.Join(dst, f))
	}
	git(t, dst, "init", "-q")
	git(t, dst, "add", ".")
	git(t, dst, "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-qm", "snapshot")
	return dst
}

// copyEntry copies one file of the tree: symbolic links stay links,
// regular files are copied, anything else (gone, a directory) is skipped.
func copyEntry(t *testing.T, src, dst string) {
	t.Helper()
	info, err := os.Lstat(src)
	if err != nil || info.IsDir() {
		return
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if info.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err == nil {
			err = os.Symlink(target, dst)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if !info.Mode().IsRegular() {
		return
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, info.Mode().Perm()|0o200); err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
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
