package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected files from the actual output")

// TestValidateGolden runs `nfd-fn validate` on each case under
// testdata/validate and compares the diagnostics (path, line, column,
// severity, message) and the exit code with the case's expected.txt.
func TestValidateGolden(t *testing.T) {
	cases, err := filepath.Glob("../testdata/validate/*")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main([]string{"validate", dir}, strings.NewReader(""), &stdout, &stderr)
			got := strings.ReplaceAll(stdout.String(), dir+"/", "") + fmt.Sprintf("# exit %d\n", code)
			path := filepath.Join(dir, "expected.txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./cli -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("validate %s:\n--- got\n%s--- want\n%s", dir, got, want)
			}
		})
	}
}
