package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// overlayBase is the base rule of overlayRepo.
const overlayBase = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: my-rule
spec:
  rules:
    - name: kernel
      labels: {env: dev}
      matchFeatures:
        - feature: kernel.version
          matchExpressions:
            major: {op: Exists}
`

// overlayRepo is a GitOps repository's layout: a base rule and an
// overlay that patches it for production.
var overlayRepo = map[string]string{
	"base/kustomization.yaml":          "resources: [rule.yaml]\n",
	"base/rule.yaml":                   overlayBase,
	"overlays/prod/kustomization.yaml": "resources: [../../base]\npatches:\n  - path: patch-rule.yaml\n",
	"overlays/prod/patch-rule.yaml":    strings.Replace(overlayBase, "env: dev", "env: prod", 1),
}

// TestValidateLeavesKustomizePatchesToTheBuild: validate over a repository
// with a kustomize overlay does not read the overlay's patch as a second
// NodeFeatureRule my-rule (which made NFD018, "defined twice", fail the
// pre-commit gate): the patch is noted (NFD060), staged alone too (with
// --context, as the hook runs), and the command the note gives, run with
// the real kustomize, validates what the overlay builds.
func TestValidateLeavesKustomizePatchesToTheBuild(t *testing.T) {
	kustomize := requireTool(t, "kustomize")
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, overlayRepo)
	env := commandEnv(map[string]string{"PATH": binDir + string(filepath.ListSeparator) + filepath.Dir(kustomize) + string(filepath.ListSeparator) + "/usr/bin:/bin"})
	for _, args := range [][]string{{"validate", "."}, {"validate", "--context", ".", "overlays/prod/patch-rule.yaml"}} {
		stdout, stderr, code := run(t, dir, env, nil, filepath.Join(binDir, "nfd-fn"), args...)
		if code != 0 || strings.Contains(stdout, "NFD018") || !strings.Contains(stdout, "[NFD060]") {
			t.Fatalf("%v: exit %d, want 0 with the patch noted (NFD060) and no NFD018:\n%s%s", args, code, stdout, stderr)
		}
	}
	stdout, _, _ := run(t, dir, env, nil, filepath.Join(binDir, "nfd-fn"), "validate", ".")
	m := regexp.MustCompile(`\((kustomize build \S+ \| nfd-fn validate -)\)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("the note gives no command:\n%s", stdout)
	}
	out, stderr, code := run(t, dir, env, nil, "bash", "-c", "set -o pipefail; "+m[1])
	if code != 0 || !strings.Contains(stderr, "in 1 file") {
		t.Errorf("%s: exit %d, want the build validated:\n%s%s", m[1], code, out, stderr)
	}
}
