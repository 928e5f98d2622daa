// Package testkit is what the tests of fn, cli and e2e share to run the
// function and read what it wrote: run it on a ResourceList (Run), run
// the command line (Command) or the built binary (Binary, Exec), read the
// output list back (Read: its items and its KRM results), pick the Nodes
// and results a test looks at, and write the files a test reads. The
// tests of the libraries under pkg/ build their object sets with
// ReadText.
// It does not import fn, so that fn's own tests can use it: they hand it
// the function to run (RunFunc).
//
// What is slow is made once per test binary, so that the suite stays
// fast on a loaded machine:
//
//   - Binary is nfd-fn built the first time a test asks, the same file
//     for every later test (Build builds into a directory of the test's
//     own, for a test that must change the binary);
//   - Shared makes anything else once (a snapshot repository, a
//     pre-commit home with its hooks installed);
//   - a package using either has TestMain call Main, which removes what
//     they made after the tests;
//   - BuildEnv is the environment (static, -trimpath) every build of
//     nfd-fn in the tests runs under, the go command's own or a tool's
//     (pre-commit, the doc test's `go run .`), so that copies of the
//     source in other directories reuse the build cache's packages.
//
// A test that waits for a call that must not block uses NoHang, whose
// timeout holds on a machine at load 20; a test of cost counts work
// (internal/growth) instead of timing it.
package testkit

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// RunFunc runs the function on a ResourceList, writing the output list to
// out: fn.Run with its options, or the command line.
type RunFunc func(input []byte, out io.Writer) (code int, err error)

// Run runs run on input and returns the output and the exit code; an
// error (an input that cannot be read at all) fails the test.
func Run(t testing.TB, run RunFunc, input []byte) ([]byte, int) {
	t.Helper()
	var out bytes.Buffer
	code, err := run(input, &out)
	if err != nil {
		t.Fatalf("running the function: %v", err)
	}
	return out.Bytes(), code
}

// MainFunc is the command line's entry point (cli.Main).
type MainFunc func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Command runs the command line main with args and stdin: what it wrote
// on stdout and on stderr, and the exit code.
func Command(main MainFunc, stdin string, args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = main(args, strings.NewReader(stdin), &o, &e)
	return o.String(), e.String(), code
}

// Result is one KRM result as the output ResourceList carries it.
type Result struct {
	Message     string            `json:"message"`
	Severity    string            `json:"severity"`
	ResourceRef map[string]string `json:"resourceRef"`
	Field       struct {
		Path          string `json:"path"`
		ProposedValue any    `json:"proposedValue"`
	} `json:"field"`
	File struct {
		Path  string `json:"path"`
		Index int    `json:"index"`
	} `json:"file"`
	Tags map[string]string `json:"tags"`
}

// Text is the result as "severity: message".
func (r Result) Text() string { return r.Severity + ": " + r.Message }

// List is an output ResourceList read back: its items and its results.
type List struct {
	Items   []map[string]any `json:"items"`
	Results []Result         `json:"results"`
}

// Read reads an output ResourceList, YAML or JSON, as kubectl reads it;
// output that is not one fails the test.
func Read(t testing.TB, out []byte) List {
	t.Helper()
	var l List
	if err := yaml.Unmarshal(out, &l); err != nil {
		t.Fatalf("output is not a ResourceList: %v\n%s", err, out)
	}
	return l
}

// WithCheck picks the results of one check (their "check" tag).
func (l List) WithCheck(check string) []Result {
	var out []Result
	for _, r := range l.Results {
		if r.Tags["check"] == check {
			out = append(out, r)
		}
	}
	return out
}

// Texts are the results as "severity: message", in order.
func (l List) Texts() []string {
	out := make([]string, len(l.Results))
	for i, r := range l.Results {
		out[i] = r.Text()
	}
	return out
}

// Item is the item of the kind and name, nil when there is none.
func (l List) Item(kind, name string) map[string]any {
	for _, it := range l.Items {
		if it["kind"] == kind && Metadata(it)["name"] == name {
			return it
		}
	}
	return nil
}

// Metadata is an item's metadata (nil when it has none).
func Metadata(it map[string]any) map[string]any {
	md, _ := it["metadata"].(map[string]any)
	return md
}

// Labels are an item's labels (nil when it has none).
func Labels(it map[string]any) map[string]any {
	l, _ := Metadata(it)["labels"].(map[string]any)
	return l
}

// WriteFiles writes files (paths relative to dir, directories made as
// needed) for a test to read.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
