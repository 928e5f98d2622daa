package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestValidateSaysHowManyFilesItSkipped: validate over a repository
// checks the files that mention NFD and skips the others (a Helm chart's
// Chart.yaml, a kustomization) without a finding each, but its summary
// says how many it skipped: nothing the user gave goes unmentioned.
func TestValidateSaysHowManyFilesItSkipped(t *testing.T) {
	bin := buildListTestBinary(t)
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"Chart.yaml":         "apiVersion: v2\nname: gpu-operator\nversion: 1.0.0\n",
		"kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [rules.yaml]\n",
		"rules.yaml":         kernelRule(`labels: {a: "1"}`),
	})
	for args, want := range map[string]string{
		dir:                              "0 errors, 0 warnings, 0 notes in 1 file (2 files that do not mention NFD skipped)",
		filepath.Join(dir, "Chart.yaml"): "0 errors, 0 warnings, 0 notes in 0 files (1 file that does not mention NFD skipped)",
		filepath.Join(dir, "rules.yaml"): "0 errors, 0 warnings, 0 notes in 1 file\n",
		"--context " + dir + " " + filepath.Join(dir, "rules.yaml"): "0 errors, 0 warnings, 0 notes in 1 file\n", // the context's files are not counted
	} {
		run := runBinary(t, bin, nil, append([]string{"validate"}, strings.Fields(args)...)...)
		if run.code != 0 || !strings.Contains(run.stderr, want) {
			t.Errorf("validate %s: exit %d, stderr %q; want exit 0 and %q", args, run.code, run.stderr, want)
		}
	}
}
