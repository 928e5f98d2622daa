package e2e

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// expected holds an example's .expected files; a missing file is "".
type expected struct {
	diff, results, output string
	assert                *assertion
}

func readExpected(t *testing.T, dir string) expected {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, expectedDir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	e := expected{diff: read("diff.patch"), results: read("results.yaml"), output: read("output.yaml")}
	if text := read("assert.yaml"); text != "" {
		a, err := parseAssertion([]byte(text))
		if err != nil {
			t.Fatalf("%s/assert.yaml: %v", expectedDir, err)
		}
		e.assert = a
	}
	return e
}

// stagedDiff stages everything in the package and returns the diff from
// the last commit, with settings that do not depend on the user's git.
func stagedDiff(t *testing.T, pkg string) string {
	t.Helper()
	git(t, pkg, "add", "--all")
	return strings.TrimSpace(git(t, pkg, "diff", "--cached", "--no-color", "--no-ext-diff", "--no-renames",
		"--src-prefix=a/", "--dst-prefix=b/"))
}

// checkFirstRun compares the first run with the expected files.
func checkFirstRun(t *testing.T, c testCase, want expected, got outcome, pkg string) {
	t.Helper()
	if got.code != c.cfg.ExitCode {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", got.code, c.cfg.ExitCode, got.stdout, got.stderr)
	}
	if c.cfg.ExitCode != 0 && want.results == "" && (c.cfg.TestType == typeRender || c.cfg.TestType == typeEval) {
		t.Errorf("an example that fails on purpose needs %s/results.yaml", expectedDir)
	}
	if want.results != "" {
		compareText(t, "results.yaml", want.results, got.results)
	}
	if c.cfg.TestType == typeKustomize || c.cfg.TestType == typeCLI {
		compareText(t, "output.yaml", want.output, got.stdout)
	}
	diff := stagedDiff(t, pkg)
	if want.assert != nil {
		want.assert.check(t, pkg, changedFiles(t, pkg))
		return
	}
	compareText(t, "diff.patch", want.diff, diff)
}

// checkRerun checks that a second run gives the same outcome and leaves
// every file as the first run left it.
func checkRerun(t *testing.T, first, got outcome, pkg string) {
	t.Helper()
	if got.code != first.code {
		t.Errorf("second run: exit code %d, first run %d\nstderr:\n%s", got.code, first.code, got.stderr)
	}
	compareText(t, "second run's results (against the first run's)", first.results, got.results)
	compareText(t, "second run's output (against the first run's)", first.stdout, got.stdout)
	if diff := stagedDiff(t, pkg); diff != "" {
		t.Errorf("the second run changed the package:\n%s", diff)
	}
}

// changedFiles lists the files staged as changed since the last commit.
func changedFiles(t *testing.T, pkg string) []string {
	t.Helper()
	out := strings.TrimSpace(git(t, pkg, "diff", "--cached", "--name-only", "--no-renames"))
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

func compareText(t *testing.T, what, want, got string) {
	t.Helper()
	if want == got {
		return
	}
	t.Errorf("%s differs (-want +got); run `go test ./e2e -update` if the change is intended:\n%s",
		what, cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")))
}

// writeExpected rewrites the expected files from a first run (-update).
// config.yaml and assert.yaml are written by hand and left alone.
func writeExpected(t *testing.T, c testCase, old expected, got outcome, diff string) {
	t.Helper()
	dir := filepath.Join(c.dir, expectedDir)
	write := func(name, text string, keep bool) {
		path := filepath.Join(dir, name)
		if !keep {
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(path, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got.code != c.cfg.ExitCode {
		t.Errorf("not updating: exit code %d, config.yaml says %d\nstderr:\n%s", got.code, c.cfg.ExitCode, got.stderr)
		return
	}
	if old.assert == nil {
		write("diff.patch", diff, diff != "")
	}
	write("results.yaml", got.results, got.results != "" && (old.results != "" || got.code != 0))
	if c.cfg.TestType == typeKustomize || c.cfg.TestType == typeCLI {
		write("output.yaml", got.stdout, true)
	}
}
