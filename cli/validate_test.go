package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
)

// TestValidateGolden runs `nfd-fn validate` on each case under
// testdata/validate (with the flags in the case's optional args file, one
// per line) and compares the diagnostics (path, line, column, severity,
// message, check) and the exit code with the case's expected.txt.
func TestValidateGolden(t *testing.T) {
	cases, err := filepath.Glob("../testdata/validate/*")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"validate"}, caseArgs(t, dir)...)
			code := Main(append(args, dir), strings.NewReader(""), &stdout, &stderr)
			got := strings.ReplaceAll(stdout.String(), dir+"/", "") + fmt.Sprintf("# exit %d\n", code)
			golden.Check(t, filepath.Join(dir, "expected.txt"), []byte(got))
		})
	}
}

// caseArgs reads the extra flags of a golden case, if it has an args file.
func caseArgs(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "args"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}
