package modes

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestValidateFilesReportsAnUnreadableWorkerConfigMapAsAFinding: a
// ConfigMap among the files whose nfd-worker.conf is not a configuration
// (the fuzzer's find, cli/testdata/fuzz/FuzzValidateFiles) is an error
// about that ConfigMap at its file and line, as the KRM function reports
// it among its items; not a failure to run.
func TestValidateFilesReportsAnUnreadableWorkerConfigMapAsAFinding(t *testing.T) {
	t.Chdir(t.TempDir())
	testkit.WriteFiles(t, ".", map[string]string{"worker.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nfd-worker-conf}\ndata:\n  nfd-worker.conf: |\n    c\n"})
	f := OpenFiles([]string{"."}, nil)
	defer f.Close()
	if _, err := f.LoadSettings(SettingsFlags{}); err != nil {
		t.Fatal(err)
	}
	ds, _, err := ValidateFiles(f, ValidateFilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const want = `worker.yaml:1:1: error: ConfigMap/nfd-worker-conf data[nfd-worker.conf]: `
	if len(ds) != 1 || !strings.HasPrefix(ds[0].Text(), want) || !strings.Contains(ds[0].Message, "not an nfd-worker configuration") {
		t.Errorf("findings %v; want one error starting %q", ds, want)
	}
}
