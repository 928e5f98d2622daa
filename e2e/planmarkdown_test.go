package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanMarkdownShowsTrackingAnnotationsAsListDifference is issue 26's
// point 9 (plan part): a change of nfd-master's tracking annotations is
// shown as the names gained and lost, not as two comma lists clipped to
// the same prefix (which read as unchanged). pkg/plan's
// TestTrackingAnnotationChangeIsAListDifference covers lists longer than
// the clip width.
func TestPlanMarkdownShowsTrackingAnnotationsAsListDifference(t *testing.T) {
	out, stderr, code := run(t, planFixture, commandEnv(nil), nil, filepath.Join(binDir, "nfd-fn"),
		"plan", "-o", "markdown", "--config", "config.yaml", "snapshot.yaml", "rules")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"| changed | annotation `nfd.node.kubernetes.io/feature-labels: -old-gpu, -nvidia.com/gpu.present` | 1 | `gpu-2` |",
		"| changed | annotation `nfd.node.kubernetes.io/feature-labels: -old-gpu` | 1 | `gpu-1` |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, " -> cpu-avx2") {
		t.Errorf("a tracking annotation is still shown as before -> after:\n%s", out)
	}
}
