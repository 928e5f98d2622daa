// Package golden compares test output with golden files. Run a package's
// tests with -update to rewrite its golden files from the actual output.
package golden

import (
	"flag"
	"os"
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
