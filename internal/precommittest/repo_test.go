package precommittest

import (
	"os"
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
	work := hookRepository(t, "nfd-fn-validate-strict")
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

// TestHookNotesHelmTemplatesWithQuotedPlaceholders is issue 34 §1's Helm
// point through the real pre-commit: a chart kept in a GitOps repository
// (Chart.yaml, values.yaml, templates/) whose NodeFeatureRule template
// parses as YAML because its placeholders are quoted
// (name: "{{ .Release.Name }}-gpu", "{{ .Values.gpuLabel }}": "true") does
// not fail the strict hook with NFD047 or NFD012: it is noted (NFD036) and
// left unchecked, while the rule file beside it is still checked.
func TestHookNotesHelmTemplatesWithQuotedPlaceholders(t *testing.T) {
	work := hookRepository(t, "nfd-fn-validate-strict")
	chart := "../../testdata/linter/helm-chart/"
	for _, name := range []string{"Chart.yaml", "values.yaml", "templates/nodefeaturerule.yaml"} {
		data, err := os.ReadFile(chart + name)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, work, "charts/gpu-rules/"+name, string(data))
	}
	writeFile(t, work, "charts/gpu-rules/templates/_helpers.tpl", "{{- define \"gpu-rules.name\" -}}{{ .Chart.Name }}{{- end }}\n")
	writeFile(t, work, "rules/a-gpu.yaml", mixedRepo["rules/a-gpu.yaml"])
	git(t, work, "add", ".")
	out, code := preCommitAll(t, work)
	if code != 0 {
		t.Fatalf("the strict hook failed on a chart with quoted placeholders (exit %d):\n%s", code, out)
	}
	if !strings.Contains(out, "charts/gpu-rules/templates/nodefeaturerule.yaml: info: a template ({{ }} outside labelsTemplate and varsTemplate)") {
		t.Errorf("no note that the template is left unchecked:\n%s", out)
	}
	for _, wrong := range []string{"NFD047", "NFD012", "error:"} {
		if strings.Contains(out, wrong) {
			t.Errorf("the hook reports %s:\n%s", wrong, out)
		}
	}

	writeFile(t, work, "rules/a-gpu.yaml", badRule)
	git(t, work, "add", "rules/a-gpu.yaml")
	if out, code := preCommitStaged(t, work); code == 0 || !strings.Contains(out, "rules/a-gpu.yaml:13:26: error:") {
		t.Errorf("the rule beside the chart is not checked (exit %d):\n%s", code, out)
	}
}

// TestHookPassesAnOverlayThatPatchesARule: in a repository with a
// kustomize overlay, a change to the overlay's patch of a NodeFeatureRule
// (staged alone, as a pull request changes it) passes the strict hook:
// the patch is not read as a second copy of the rule (NFD018 used to fail
// the commit), and the hook's output says so (NFD060).
func TestHookPassesAnOverlayThatPatchesARule(t *testing.T) {
	work := hookRepository(t, "nfd-fn-validate-strict")
	rule := mixedRepo["rules/a-gpu.yaml"]
	writeFile(t, work, "base/kustomization.yaml", "resources: [rule.yaml]\n")
	writeFile(t, work, "base/rule.yaml", rule)
	writeFile(t, work, "overlays/prod/kustomization.yaml", "resources: [../../base]\npatches:\n  - path: patch-rule.yaml\n")
	writeFile(t, work, "overlays/prod/patch-rule.yaml", strings.Replace(rule, `nvidia-gpu: "true"`, `nvidia-gpu: "prod"`, 1))
	git(t, work, "add", ".")
	git(t, work, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "repo", "--no-verify")

	writeFile(t, work, "overlays/prod/patch-rule.yaml", strings.Replace(rule, `nvidia-gpu: "true"`, `nvidia-gpu: "production"`, 1))
	git(t, work, "add", "overlays/prod/patch-rule.yaml")
	out, code := preCommitStaged(t, work)
	if code != 0 || strings.Contains(out, "NFD018") || !strings.Contains(out, "[NFD060]") {
		t.Fatalf("the strict hook on a changed overlay patch: exit %d, want 0 with the patch noted (NFD060):\n%s", code, out)
	}
	if out, code := preCommitAll(t, work); code != 0 || strings.Contains(out, "NFD018") {
		t.Fatalf("the strict hook on the whole repository: exit %d:\n%s", code, out)
	}
}
