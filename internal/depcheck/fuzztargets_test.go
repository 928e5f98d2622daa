package depcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fuzzFunc finds a fuzz target's declaration in a test file.
var fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz\w+)\(f \*testing\.F\)`)

// CI runs `make fuzz` (.ci/run), which fuzzes FUZZ_TARGETS only: a fuzz
// target missing there would run its seed corpus and never be fuzzed.
func TestMakefileFuzzesEveryFuzzTarget(t *testing.T) {
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatalf("reading the Makefile: %v", err)
	}
	listed := string(makefile)
	err = filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "tools" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pkg := "./" + filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../../")))
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(src), -1) {
			if target := pkg + ":" + m[1]; !strings.Contains(listed, target) {
				t.Errorf("%s is not in the Makefile's FUZZ_TARGETS, so CI never fuzzes it", target)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
