package e2e

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// labelsView is --output labels-json's shape.
type labelsView struct {
	Nodes []struct {
		Name              string            `json:"name"`
		Labels            map[string]string `json:"labels"`
		Annotations       map[string]string `json:"annotations"`
		Taints            []struct{ Key, Value, Effect string }
		ExtendedResources map[string]string `json:"extendedResources"`
	} `json:"nodes"`
}

// applyNode is what the apply output holds of a Node.
type applyNode struct {
	Metadata struct {
		Name        string
		Labels      map[string]string
		Annotations map[string]string
	}
	Spec struct {
		Taints []struct{ Key, Value, Effect string }
	}
	Status struct{ Capacity map[string]string }
}

// TestRenderOutputLabelsAnswersWhatEachNodeGets is issue 26's point 5:
// `nfd-fn render -o labels FILE|DIR...` prints, per node, the labels,
// annotations, taints and extended resources NFD gives it as a table,
// and `-o labels-json` the same as JSON, which must agree with the Nodes
// `--output apply` and `apply-status` write (less nfd-master's tracking
// annotations); the `labels` nodeOutput of a ResourceList on stdin says
// the same in one info result per node and writes no Node.
func TestRenderOutputLabelsAnswersWhatEachNodeGets(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	files := []string{"--config", "config.yaml", "snapshot.yaml", "rules"}
	table, stderr, code := run(t, planFixture, commandEnv(nil), nil, bin, append([]string{"render", "-o", "labels"}, files...)...)
	want := `NODE   KIND      KEY                                  VALUE
cpu-1  label     feature.node.kubernetes.io/cpu-avx2  true
cpu-2  -         (nothing)
gpu-1  label     feature.node.kubernetes.io/cpu-avx2  true
gpu-1  label     nvidia.com/gpu.present               true
gpu-1  taint     nvidia.com/gpu                       present:NoSchedule
gpu-1  resource  nvidia.com/gpu                       1
gpu-2  label     feature.node.kubernetes.io/cpu-avx2  true
`
	if code != 0 || table != want {
		t.Errorf("-o labels: exit %d\n%s\nwant\n%s\nstderr:\n%s", code, table, want, stderr)
	}
	if readme, err := os.ReadFile("../README.md"); err != nil || !strings.Contains(string(readme), "```text\n"+want+"```") {
		t.Errorf("README.md does not show this table (%v)", err)
	}

	out, stderr, code := run(t, planFixture, commandEnv(nil), nil, bin, append([]string{"render", "--output", "labels-json"}, files...)...)
	var view labelsView
	if err := json.Unmarshal([]byte(out), &view); code != 0 || err != nil {
		t.Fatalf("-o labels-json: exit %d, %v\n%s%s", code, err, out, stderr)
	}
	nodes := map[string]applyNode{}
	for _, output := range []string{"apply", "apply-status"} {
		applied, stderr, code := run(t, planFixture, commandEnv(nil), nil, bin, append([]string{"render", "--output", output}, files...)...)
		if code != 0 {
			t.Fatalf("--output %s: exit %d\n%s", output, code, stderr)
		}
		dec := yaml.NewDecoder(strings.NewReader(applied))
		for {
			var n applyNode
			if err := dec.Decode(&n); err != nil {
				break
			}
			if output == "apply-status" {
				status := n.Status
				n = nodes[n.Metadata.Name]
				n.Status = status
			}
			nodes[n.Metadata.Name] = n
		}
	}
	if len(view.Nodes) != 4 {
		t.Errorf("labels-json lists %d nodes, want the fleet's 4", len(view.Nodes))
	}
	for _, v := range view.Nodes {
		n := nodes[v.Name]
		feature := maps.Clone(n.Metadata.Annotations)
		for _, tracking := range []string{"feature-labels", "extended-resources", "feature-annotations", "taints"} {
			delete(feature, "nfd.node.kubernetes.io/"+tracking)
		}
		if !sameMap(v.Labels, n.Metadata.Labels) || !sameMap(v.Annotations, feature) || !sameMap(v.ExtendedResources, n.Status.Capacity) || len(v.Taints) != len(n.Spec.Taints) {
			t.Errorf("node %s: labels-json %+v disagrees with --output apply %+v", v.Name, v, n)
		}
	}

	rl := brokenResourceList(t, false)
	rl = []byte(strings.Replace(string(rl), `novaProviderConfig: "true"`, `nodeOutput: labels`, 1))
	out, stderr, code = run(t, ".", commandEnv(nil), rl, bin)
	for _, want := range []string{
		"message: gets labels feature.node.kubernetes.io/intel-nic-1592=true, feature.node.kubernetes.io/kernel-recent=true, vendor.io/my-sample-feature=true; taints vendor.io/sriov=true:PreferNoSchedule; extended resources vendor.io/vfs=64",
		"message: gets nothing from NFD",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("nodeOutput labels: exit %d, output lacks %q\n%s", code, want, stderr)
		}
	}
	if strings.Contains(out, "nodes/worker-a.yaml") {
		t.Errorf("nodeOutput labels wrote a new Node:\n%s", out)
	}
}

// sameMap compares maps, nil and empty alike.
func sameMap(a, b map[string]string) bool {
	return len(a) == len(b) && (len(a) == 0 || maps.Equal(a, b))
}

// TestNodeOutputLabelsUnderKpt: kpt fn eval with nodeOutput=labels prints
// one info result per node saying what it gets, and leaves the package's
// Node files as they were.
func TestNodeOutputLabelsUnderKpt(t *testing.T) {
	kpt := requireTool(t, "kpt")
	pkg := filepath.Join(t.TempDir(), "eval-imperative")
	copyPath(t, "../examples/eval-imperative", pkg)
	before, err := os.ReadFile(filepath.Join(pkg, "nodes", "worker-b.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, ".", commandEnv(nil), nil, kpt, "fn", "eval", pkg, "--truncate-output=false", "--exec", "nfd-fn", "--", "nodeOutput=labels", "enableTaints=true")
	out := stdout + stderr
	for _, want := range []string{
		"[info] v1/Node/worker-a: gets labels feature.node.kubernetes.io/intel-nic-1592=true",
		"[info] v1/Node/worker-b: gets nothing from NFD",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, kpt's output lacks %q:\n%s", code, want, out)
		}
	}
	after, err := os.ReadFile(filepath.Join(pkg, "nodes", "worker-b.yaml"))
	if err != nil || string(after) != string(before) {
		t.Errorf("nodeOutput labels changed nodes/worker-b.yaml (%v):\n%s", err, after)
	}
	if _, err := os.Stat(filepath.Join(pkg, "nodes", "worker-a.yaml")); err == nil {
		t.Errorf("nodeOutput labels wrote nodes/worker-a.yaml")
	}
}
