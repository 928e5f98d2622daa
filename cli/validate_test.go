package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
)

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
			golden.Check(t, filepath.Join(dir, "expected.txt"), []byte(got))
		})
	}
}
