package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
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

// TestValidateReportsAnUnreadableWorkerConfigMapAsAnError: a ConfigMap
// among the files whose nfd-worker.conf is not a configuration (the
// fuzzer's find, testdata/fuzz/FuzzValidateFiles) is an error about that
// ConfigMap at its file and line, exit 1, as the KRM function reports it
// among its items; not a failure to run (exit 2).
func TestValidateReportsAnUnreadableWorkerConfigMapAsAnError(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{"worker.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nfd-worker-conf}\ndata:\n  nfd-worker.conf: |\n    c\n"})
	out, errOut, code := testkit.Command(Main, "", "validate", dir)
	want := filepath.Join(dir, "worker.yaml") + `:1:1: error: ConfigMap/nfd-worker-conf data[nfd-worker.conf]: `
	if code != 1 || !strings.Contains(out+errOut, want) || !strings.Contains(out+errOut, "not an nfd-worker configuration") {
		t.Errorf("exit %d; want 1 and an error starting %q:\n%s%s", code, want, out, errOut)
	}
}
