package depcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// printing is a use of the process's streams or of fmt's printing to
// them.
var printing = regexp.MustCompile(`\bos\.(Stdout|Stderr|Exit)\b|\bfmt\.Print|\blog\.`)

// TestModesPrintNothing keeps internal/modes to returning what a run has
// to tell (diagnostics, errors) rather than printing it or exiting: the
// drivers (cli, fn) say it and pick the exit code.
func TestModesPrintNothing(t *testing.T) {
	files, err := filepath.Glob("../modes/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := printing.Find(b); m != nil {
			t.Errorf("%s uses %s: return diagnostics or an error instead", filepath.Base(f), m)
		}
	}
}
