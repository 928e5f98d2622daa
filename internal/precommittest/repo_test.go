package precommittest

import (
	"strings"
	"testing"
)

// A repository as platform teams keep one: NFD rules beside a Helm chart,
// a kustomization and a JSON patch.
var mixedRepo = map[string]string{
	"charts/gpu/Chart.yaml":  "apiVersion: v2\nname: gpu\nversion: 0.1.0\n",
	"charts/gpu/values.yaml": "replicas: 2\nimage: {repository: example/gpu, tag: \"1.0\"}\n",
	"charts/gpu/templates/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  replicas: {{ .Values.replicas }}
  template:
    spec:
      nodeSelector:
        {{- toYaml .Values.nodeSelector | nindent 8 }}
`,
	"deploy/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- ../rules\npatches:\n- path: patch.json\n",
	"deploy/patch.json":         `[{"op": "add", "path": "/metadata/labels/team", "value": "gpu"}]`,
	"rules/a-gpu.yaml": `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: a-gpu
spec:
  rules:
    - name: nvidia-gpu
      labels:
        nvidia-gpu: "true"
      matchFeatures:
        - feature: pci.device
          matchExpressions:
            vendor: {op: In, value: ["10de"]}
`,
	"rules/b-gpu-nodes.yaml": `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: b-gpu-nodes
spec:
  rules:
    - name: gpu-node
      labels:
        gpu-node: "true"
      matchFeatures:
        - feature: rule.matched
          matchExpressions:
            nvidia-gpu: {op: IsTrue}
`,
}

// TestHookSkipsOtherFilesAndResolvesAcrossTheRepo runs the strict hook with
// the real pre-commit on a repository that mixes NFD rules with a Helm
// chart, a kustomization and a JSON patch: a change to one rule file that
// refers to a rule in an unchanged file passes, every other kind of file is
// skipped silently, and only a broken rule file fails the commit.
func TestHookSkipsOtherFilesAndResolvesAcrossTheRepo(t *testing.T) {
	requirePreCommit(t)
	hookRepo := hookRepo(t)
	work := t.TempDir()
	git(t, work, "init", "-q")
	writeFile(t, work, ".pre-commit-config.yaml", "repos:\n  - repo: "+hookRepo+"\n    rev: "+git(t, hookRepo, "rev-parse", "HEAD")+"\n    hooks:\n      - id: nfd-fn-validate-strict\n")
	for name, content := range mixedRepo {
		writeFile(t, work, name, content)
	}
	git(t, work, "add", ".")
	git(t, work, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "repo", "--no-verify")

	// Change only the rule that refers to a-gpu's label, as a pull request would.
	writeFile(t, work, "rules/b-gpu-nodes.yaml", strings.Replace(mixedRepo["rules/b-gpu-nodes.yaml"], `gpu-node: "true"`, `gpu-node: "yes"`, 1))
	git(t, work, "add", "rules/b-gpu-nodes.yaml")
	if out, code := preCommitStaged(t, work); code != 0 {
		t.Fatalf("the strict hook failed on a good change (exit %d):\n%s", code, out)
	}
	out, code := preCommitAll(t, work)
	if code != 0 {
		t.Fatalf("the strict hook failed on the whole repository (exit %d):\n%s", code, out)
	}
	for _, noisy := range []string{"charts/", "deploy/", "not an NFD kind"} {
		if strings.Contains(out, noisy) {
			t.Errorf("the hook mentions %q; other files must be skipped silently:\n%s", noisy, out)
		}
	}

	writeFile(t, work, "rules/c-broken.yaml", badRule)
	git(t, work, "add", "rules/c-broken.yaml")
	out, code = preCommitStaged(t, work)
	if code == 0 || !strings.Contains(out, "rules/c-broken.yaml:13:26: error:") {
		t.Fatalf("the hook did not fail on the broken file (exit %d):\n%s", code, out)
	}
	if strings.Contains(out, "a-gpu.yaml") || strings.Contains(out, "b-gpu-nodes.yaml") {
		t.Errorf("the hook reports files that were not changed:\n%s", out)
	}
}

// preCommitStaged runs the hooks on the staged files, as `git commit` does.
func preCommitStaged(t *testing.T, dir string) (string, int) {
	t.Helper()
	return runPreCommit(t, dir, "run")
}

// preCommitAll runs the hooks on every file of the repository.
func preCommitAll(t *testing.T, dir string) (string, int) {
	t.Helper()
	return runPreCommit(t, dir, "run", "--all-files")
}
