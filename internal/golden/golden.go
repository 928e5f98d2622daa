// Package golden compares test output with golden files. Run a package's
// tests with -update to rewrite its golden files from the actual output.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Update is the -update flag every test binary that imports golden gets.
var Update = flag.Bool("update", false, "rewrite golden files from the actual output")

// Check compares got with the golden file at path, or rewrites the file
// when -update is set.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the tests with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// Files runs one subtest per file matching glob, named after the file
// without its extension: run turns the file's content into output, which
// is checked against the golden file beside it (same name, .golden).
func Files(t *testing.T, glob string, run func(t *testing.T, input []byte) []byte) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files match %s: %v", glob, err)
	}
	for _, f := range files {
		base := strings.TrimSuffix(f, filepath.Ext(f))
		t.Run(filepath.Base(base), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			Check(t, base+".golden", run(t, data))
		})
	}
}
