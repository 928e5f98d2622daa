package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// node is the part of a Node the tests read back.
type node struct {
	Metadata struct {
		Name            string            `json:"name"`
		ResourceVersion string            `json:"resourceVersion"`
		Labels          map[string]string `json:"labels"`
		Annotations     map[string]string `json:"annotations"`
		ManagedFields   []managedFields   `json:"managedFields"`
	} `json:"metadata"`
	Spec struct {
		Taints []struct{ Key, Value, Effect string } `json:"taints"`
	} `json:"spec"`
	Status struct {
		Capacity    map[string]string `json:"capacity"`
		Allocatable map[string]string `json:"allocatable"`
	} `json:"status"`
}

// managedFields is one field manager's entry.
type managedFields struct {
	Manager     string          `json:"manager"`
	Operation   string          `json:"operation"`
	Subresource string          `json:"subresource"`
	FieldsV1    json.RawMessage `json:"fieldsV1"`
}

// notReady is the taint the API server's TaintNodesByCondition admission
// gives a Node at registration (the node lifecycle controller removes it
// once the node is Ready).
const notReady = "node.kubernetes.io/not-ready=:NoSchedule"

// taints are the Node's taints as key=value:effect, but notReady.
func (n node) taints() []string {
	var out []string
	for _, t := range n.allTaints() {
		if t != notReady {
			out = append(out, t)
		}
	}
	return out
}

// allTaints are all the Node's taints as key=value:effect.
func (n node) allTaints() []string {
	var out []string
	for _, t := range n.Spec.Taints {
		out = append(out, t.Key+"="+t.Value+":"+t.Effect)
	}
	return out
}

// owner is the entry of a manager for a subresource ("" the Node).
func (n node) owner(manager, subresource string) *managedFields {
	for i, m := range n.Metadata.ManagedFields {
		if m.Manager == manager && m.Subresource == subresource {
			return &n.Metadata.ManagedFields[i]
		}
	}
	return nil
}

// owns reports an entry owning a field, named as in fieldsV1
// ("f:metadata", "f:labels", "f:nvidia.com/gpu.present").
func (m *managedFields) owns(path ...string) bool {
	if m == nil {
		return false
	}
	var tree map[string]any
	if json.Unmarshal(m.FieldsV1, &tree) != nil {
		return false
	}
	for _, p := range path {
		next, ok := tree[p].(map[string]any)
		if !ok {
			return false
		}
		tree = next
	}
	return true
}

// kubeletLabels, kubeletAnnotations and kubeletCapacity are what a
// kubelet registers a Node with; nfd-fn's applies must leave them.
var (
	kubeletLabels = map[string]string{
		"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
		"kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux",
	}
	kubeletAnnotations = map[string]string{
		"node.alpha.kubernetes.io/ttl":                           "0",
		"volumes.kubernetes.io/controller-managed-attach-detach": "true",
	}
	kubeletCapacity = map[string]string{"cpu": "32", "memory": "131900000Ki", "pods": "110", "ephemeral-storage": "100Gi"}
)

// registerNode creates a Node as a kubelet registers it: its own labels
// and annotations, capacity and allocatable, field manager kubelet.
func (p *plane) registerNode(t *testing.T, name string) {
	t.Helper()
	labels := map[string]string{"kubernetes.io/hostname": name}
	for k, v := range kubeletLabels {
		labels[k] = v
	}
	obj := map[string]any{
		"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{"name": name, "labels": labels, "annotations": kubeletAnnotations},
		"spec":     map[string]any{},
		"status": map[string]any{"capacity": kubeletCapacity, "allocatable": kubeletCapacity,
			"nodeInfo": map[string]any{"kubeletVersion": "v1.35.4", "operatingSystem": "linux", "architecture": "amd64"}},
	}
	body, _ := json.Marshal(obj)
	if r := p.do("POST", "/api/v1/nodes?fieldManager=kubelet", "application/json", body); r.code != http.StatusCreated {
		t.Fatalf("registering Node %s: %d %v %s", name, r.code, r.err, r.body)
	}
	if n := p.node(t, name); n.Status.Capacity["pods"] != "110" {
		t.Fatalf("Node %s registered without its capacity: %v", name, n.Status.Capacity)
	}
}

// node reads a Node back.
func (p *plane) node(t *testing.T, name string) node {
	t.Helper()
	r := p.do("GET", "/api/v1/nodes/"+name, "", nil)
	var n node
	if r.code != http.StatusOK || json.Unmarshal(r.body, &n) != nil {
		t.Fatalf("reading Node %s: %d %v %s", name, r.code, r.err, r.body)
	}
	return n
}

// checkKubeletFields fails when an apply touched what the kubelet owns.
func checkKubeletFields(t *testing.T, n node) {
	t.Helper()
	for k, v := range kubeletLabels {
		if n.Metadata.Labels[k] != v {
			t.Errorf("Node %s lost the kubelet's label %s=%s: %v", n.Metadata.Name, k, v, n.Metadata.Labels)
		}
	}
	for k, v := range kubeletAnnotations {
		if n.Metadata.Annotations[k] != v {
			t.Errorf("Node %s lost the kubelet's annotation %s=%s", n.Metadata.Name, k, v)
		}
	}
	for k, v := range kubeletCapacity {
		if n.Status.Capacity[k] != v || n.Status.Allocatable[k] != v {
			t.Errorf("Node %s lost the kubelet's %s capacity %s: %v / %v", n.Metadata.Name, k, v, n.Status.Capacity, n.Status.Allocatable)
		}
	}
}

// render runs the real nfd-fn binary and writes its stdout to a file of
// dir, failing the test on a non-zero exit.
func render(t *testing.T, dir, out string, args ...string) string {
	t.Helper()
	cmd := exec.Command(testkit.Binary(t), append([]string{"render"}, args...)...)
	cmd.Dir = "testdata/apply"
	stdout, stderr, code := testkit.Exec(t, cmd, nil)
	if code != 0 {
		t.Fatalf("nfd-fn render %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	path := filepath.Join(dir, out)
	if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// mustKubectl runs kubectl and fails the test when it fails.
func (p *plane) mustKubectl(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := p.kubectl(nil, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// nfdSetup serves the newest release's CRDs and creates the
// node-feature-discovery namespace with the fixture's NodeFeatures.
func (p *plane) nfdSetup(t *testing.T) {
	t.Helper()
	lines := releaseTags()
	if err := p.useCRDs(crdStream(t, lines[len(lines)-1])); err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := p.kubectl(nil, "create", "namespace", "node-feature-discovery"); err != nil && !strings.Contains(errOut, "AlreadyExists") {
		t.Fatalf("kubectl create namespace: %v\n%s", err, errOut)
	}
	p.mustKubectl(t, "apply", "--server-side", "--field-manager=nfd-worker", "-f", "testdata/apply/nodefeatures.yaml")
}

// snapshot exports kinds from the server as `kubectl get -A -o yaml`
// into dir and returns the file's path.
func (p *plane) snapshot(t *testing.T, dir, kinds string) string {
	t.Helper()
	out := p.mustKubectl(t, "get", kinds, "-A", "-o", "yaml")
	path := filepath.Join(dir, strings.ReplaceAll(kinds, ",", "-")+".yaml")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sortedKeys lists a map's keys with a prefix, sorted.
func sortedKeys(m map[string]string, prefixes ...string) []string {
	var out []string
	for k := range m {
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				out = append(out, k+"="+m[k])
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

func fmtList(l []string) string { return fmt.Sprintf("%q", l) }
