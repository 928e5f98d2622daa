package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// brokenSnapshot writes the plan fixture's snapshot, rules and config to
// a directory, with one NodeFeature the API server would reject (an
// unquoted `class: 0300`, which YAML reads as a number); clean: as is.
func brokenSnapshot(t *testing.T, broken bool) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"snapshot.yaml", "rules", "config.yaml"} {
		copyPath(t, filepath.Join(planFixture, name), filepath.Join(dir, name))
	}
	if broken {
		edit(t, filepath.Join(dir, "snapshot.yaml"), `class: "0300"`, `class: 0300`)
	}
	return dir
}

// edit replaces the first old in a file with new, failing the test when
// it is not there.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s lacks %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// brokenResourceList is the quickstart ResourceList with an unquoted
// `class: 0200` in a NodeFeature, and the Nova provider config on.
func brokenResourceList(t *testing.T, broken bool) []byte {
	t.Helper()
	b, err := os.ReadFile("../examples/render-quickstart/resourcelist.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `enableTaints: "true"`, `enableTaints: "true"`+"\n    novaProviderConfig: \"true\"", 1)
	if broken {
		s = strings.Replace(s, `class: "0200"`, `class: 0200`, 1)
	}
	return []byte(s)
}

// TestOutputsFailClosedOnErrors is issue 26's point 2: an output another
// program acts on (--output apply, --output nova, --output labels-json,
// any --out FILE) is written only by a run without errors. On an error,
// stdout is empty, the --out file keeps its old content (and no temporary
// file is left beside it), and one stderr line says why; the ResourceList
// on stdout, which carries its own error results, and the labels table, which
// a person reads beside the errors, are still written.
func TestOutputsFailClosedOnErrors(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	files := []string{"--config", "config.yaml", "snapshot.yaml", "rules"}
	tests := []struct {
		name         string
		args         []string
		stdin        bool // the quickstart ResourceList on stdin
		out          bool // with --out FILE
		writesAnyway bool // written with exit 1: the output carries or sits beside the errors
	}{
		{name: "apply-stdout", args: []string{"render", "--output", "apply"}},
		{name: "apply-out", args: []string{"render", "--output", "apply"}, out: true},
		{name: "resourcelist-out", args: []string{"render"}, out: true},
		{name: "nova-stdout", args: []string{"render", "--output", "nova"}, stdin: true},
		{name: "nova-out", args: []string{"render", "--output", "nova"}, stdin: true, out: true},
		{name: "labels-json-stdout", args: []string{"render", "-o", "labels-json"}},
		{name: "labels-json-out", args: []string{"render", "-o", "labels-json"}, out: true},
		{name: "resourcelist-stdout", args: []string{"render"}, writesAnyway: true},
		{name: "labels-table-stdout", args: []string{"render", "-o", "labels"}, writesAnyway: true},
	}
	for _, tt := range tests {
		for _, broken := range []bool{true, false} {
			name := tt.name + map[bool]string{true: "-broken", false: "-clean"}[broken]
			t.Run(name, func(t *testing.T) {
				dir := brokenSnapshot(t, broken)
				args := append([]string{}, tt.args...)
				var stdin []byte
				if tt.stdin {
					stdin = brokenResourceList(t, broken)
				} else {
					args = append(args, files...)
				}
				const old = "the output of the last clean run\n"
				outFile := filepath.Join(dir, "out", "nodes.yaml")
				if tt.out {
					if err := os.MkdirAll(filepath.Dir(outFile), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(outFile, []byte(old), 0o644); err != nil {
						t.Fatal(err)
					}
					args = append(args, "--out", outFile)
				}
				stdout, stderr, code := run(t, dir, commandEnv(nil), stdin, bin, args...)
				got := stdout
				if tt.out {
					b, err := os.ReadFile(outFile)
					if err != nil {
						t.Fatal(err)
					}
					got = string(b)
					if entries, _ := os.ReadDir(filepath.Dir(outFile)); len(entries) != 1 {
						t.Errorf("--out left %d files in its directory, want 1", len(entries))
					}
				}
				switch {
				case !broken:
					if code != 0 || got == "" || got == old {
						t.Errorf("clean run: exit %d, output %d bytes (changed: %v), want exit 0 and an output\n%s", code, len(got), got != old, stderr)
					}
				case code != 1:
					t.Errorf("exit %d, want 1\n%s", code, stderr)
				case !strings.Contains(stderr, "expected a string, got int 0"):
					t.Errorf("stderr does not name the error:\n%s", stderr)
				case tt.writesAnyway:
					if got == "" {
						t.Errorf("nothing written, want the output beside its errors")
					}
				case tt.out && got != old:
					t.Errorf("--out file changed on an error:\n%s", got)
				case tt.out && !strings.Contains(stderr, "left as it was: the run has errors"):
					t.Errorf("stderr does not say the file was left alone:\n%s", stderr)
				case !tt.out && got != "":
					t.Errorf("stdout written on an error:\n%.300s", got)
				case !tt.out && strings.Count(stderr, "nothing written to stdout: the run has errors") != 1:
					t.Errorf("stderr does not say, once, that nothing was written:\n%s", stderr)
				}
			})
		}
	}
}
