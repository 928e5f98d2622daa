package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// pipelinesDoc holds the takeover migration the test runs verbatim.
const pipelinesDoc = repoRoot + "/docs/pipelines.md"

// migrationSteps are the shell commands of docs/pipelines.md's "Taking
// over from nfd-master": step 1's scale of nfd-master's Deployment and
// step 2's loop clearing nfd-master's managedFields entries.
func migrationSteps(t *testing.T) (stop, clear string) {
	t.Helper()
	data, err := os.ReadFile(pipelinesDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	_, section, _ := strings.Cut(doc, "## Taking over from nfd-master")
	section, _, _ = strings.Cut(section, "\n## ")
	stopCmd := regexp.MustCompile("`(kubectl -n node-feature-discovery scale deployment nfd-master --replicas=0)`").FindStringSubmatch(section)
	loop := regexp.MustCompile("(?s)```text\n(.*?)```").FindStringSubmatch(section)
	if stopCmd == nil || loop == nil || !strings.Contains(loop[1], "managedFields") {
		t.Fatalf("%s's takeover section no longer holds step 1's scale command and step 2's clearing loop", pipelinesDoc)
	}
	return stopCmd[1], dedent(loop[1])
}

// dedent removes the indentation a Markdown list item gives its code.
func dedent(block string) string {
	lines := strings.Split(block, "\n")
	indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	for i, l := range lines {
		if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n")
}

// shell runs a documented command with bash, kubectl and jq on the PATH
// and kubectl pointed at the plane.
func (p *plane) shell(t *testing.T, script string) string {
	t.Helper()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PATH="+p.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"KUBECONFIG="+p.kubeconfig, "HOME="+p.dir, "KUBECACHEDIR="+filepath.Join(p.dir, "kubecache"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the documented command failed: %v\n%s\n%s", err, script, out)
	}
	return string(out)
}

// exportAndRender exports the Nodes and NodeFeatures as the docs say
// (with their managedFields) and renders them with rules, returning
// render's warnings.
func (p *plane) exportAndRender(t *testing.T, rules ...string) string {
	t.Helper()
	dir := t.TempDir()
	export := filepath.Join(dir, "export.yaml")
	out := p.mustKubectl(t, "get", "nodes,nodefeatures", "-A", "-o", "yaml", "--show-managed-fields")
	if err := os.WriteFile(export, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testkit.Binary(t), append([]string{"render", "--output", "labels", "--config", "config.yaml", export}, rules...)...)
	cmd.Dir = "testdata/apply"
	_, stderr, code := testkit.Exec(t, cmd, nil)
	if code != 0 {
		t.Fatalf("nfd-fn render of the export: exit %d\n%s", code, stderr)
	}
	return stderr
}

// applyAsDocumented renders rules against a fresh export and applies the
// two streams with `kubectl apply --server-side --field-manager=nfd-fn`,
// without --force-conflicts.
func (p *plane) applyAsDocumented(t *testing.T, rules ...string) {
	t.Helper()
	dir := t.TempDir()
	snap := p.snapshot(t, dir, "nodes,nodefeatures")
	args := append([]string{"--config", "config.yaml", snap}, rules...)
	nodes := render(t, dir, "nodes.yaml", append([]string{"--output", "apply"}, args...)...)
	status := render(t, dir, "nodes-status.yaml", append([]string{"--output", "apply-status"}, args...)...)
	p.mustKubectl(t, "apply", "--server-side", "--field-manager=nfd-fn", "-f", nodes)
	p.mustKubectl(t, "apply", "--server-side", "--field-manager=nfd-fn", "--subresource=status", "-f", status)
}

// testMigration runs docs/pipelines.md's takeover migration verbatim on
// Nodes nfd-master labelled: render warns NFD314 before it and not
// after, and afterwards nfd-fn's apply of the rules without the GPU rule
// removes that rule's label, annotation, taint and extended resource.
func testMigration(t *testing.T, p *plane) {
	stop, clear := migrationSteps(t)
	p.nfdSetup(t)
	p.mustKubectl(t, "delete", "nodes", "--all")
	for _, name := range []string{"gpu-1", "cpu-1"} {
		p.registerNode(t, name)
	}
	p.labelAsNFDMaster(t, "gpu-1", gpuFirst)
	p.labelAsNFDMaster(t, "cpu-1", cpuOnly)
	all := []string{"rules/cpu.yaml", "rules/gpu.yaml"}

	if w := p.exportAndRender(t, all...); !strings.Contains(w, "[NFD314]") || !strings.Contains(w, "nfd-master") {
		t.Fatalf("render of the export before the migration does not warn NFD314 naming nfd-master:\n%s", w)
	}

	p.mustKubectl(t, "-n", "node-feature-discovery", "create", "deployment", "nfd-master", "--image=registry.k8s.io/nfd/node-feature-discovery:v0.19.0")
	p.shell(t, stop)
	if got := p.mustKubectl(t, "-n", "node-feature-discovery", "get", "deployment", "nfd-master", "-o", "jsonpath={.spec.replicas}"); got != "0" {
		t.Fatalf("step 1 left nfd-master's Deployment at %s replicas", got)
	}

	p.shell(t, clear)
	for _, name := range []string{"gpu-1", "cpu-1"} {
		n := p.node(t, name)
		for _, m := range n.Metadata.ManagedFields {
			if m.Manager == "nfd-master" {
				t.Errorf("Node %s still has nfd-master's entry after step 2: %+v", name, m)
			}
		}
		if n.owner("kubelet", "") == nil {
			t.Errorf("step 2 removed kubelet's entry of Node %s: %+v", name, n.Metadata.ManagedFields)
		}
		checkKubeletFields(t, n)
	}
	p.shell(t, clear) // a second run finds nothing to clear and patches nothing

	p.applyAsDocumented(t, all...)
	stateOf(t, p.node(t, "gpu-1")).diff(t, "gpu-1", gpuFirst)
	if w := p.exportAndRender(t, all...); strings.Contains(w, "[NFD314]") {
		t.Errorf("render of the export after the migration still warns NFD314:\n%s", w)
	}

	p.applyAsDocumented(t, "rules/cpu.yaml")
	n := p.node(t, "gpu-1")
	stateOf(t, n).diff(t, "gpu-1", gpuRuleRemoved)
	stateOf(t, p.node(t, "cpu-1")).diff(t, "cpu-1", cpuOnly)
	checkKubeletFields(t, n)
}
