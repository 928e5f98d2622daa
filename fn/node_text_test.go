package fn

import (
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// exportedNodes are the Node items of the cluster export fixture (kubectl
// get -o yaml of real Nodes), read as the streamed render reads them.
func exportedNodes(t *testing.T) []*krm.Item {
	t.Helper()
	data, err := os.ReadFile("../testdata/cluster-export/snapshot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	list := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n" + strings.SplitN(string(data), "\n", 2)[1]
	list = strings.Replace(list, "\nkind: List\n", "\n", 1)
	rl, err := krm.Read([]byte(list), krm.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var nodes []*krm.Item
	for _, it := range rl.Items {
		if it.Kind == "Node" {
			nodes = append(nodes, it)
		}
	}
	if len(nodes) < 3 {
		t.Fatalf("the fixture has %d Nodes", len(nodes))
	}
	return nodes
}

// TestNodeTextPatchIsTheTreePatch holds the text patch of exported Nodes
// to the tree patch it stands in for: labels and annotations added,
// changed and removed, capacity and allocatable given extended resources,
// nothing changed; the two outputs must read as the same Node.
func TestNodeTextPatchIsTheTreePatch(t *testing.T) {
	edits := map[string]func(st *objects.NodeState){
		"nothing": func(*objects.NodeState) {},
		"labels-added": func(st *objects.NodeState) {
			st.Labels["feature.node.kubernetes.io/cpu-cpuid.AVX512F"] = "true"
			st.Labels["feature.node.kubernetes.io/kernel-version.major"] = "6"
			st.Labels["vendor.example.com/yes"] = "yes"
		},
		"label-changed-and-removed": func(st *objects.NodeState) {
			for k := range st.Labels {
				if strings.HasPrefix(k, "kubernetes.io/") {
					delete(st.Labels, k)
				} else {
					st.Labels[k] = "changed"
				}
			}
		},
		"annotations-added": func(st *objects.NodeState) {
			st.Annotations["nfd.node.kubernetes.io/feature-labels"] = "cpu-cpuid.AVX512F,kernel-version.major"
			st.Annotations["nfd.node.kubernetes.io/extended-resources"] = ""
		},
		"extended-resources": func(st *objects.NodeState) {
			st.Capacity["example.com/widgets"] = "4"
			st.Allocatable["example.com/widgets"] = "4"
		},
	}
	for name, edit := range edits {
		for _, it := range exportedNodes(t) {
			old := nodeState(t, it)
			res := &master.NodeResult{Name: it.Name, State: cloneState(old)}
			edit(&res.State)
			text, changed, ok := patchNodeText(it, &old, res, config.Settings{})
			if !ok {
				t.Fatalf("%s: Node %s was not patched in text", name, it.Name)
			}
			tree, err := it.ParseTree()
			if err != nil {
				t.Fatal(err)
			}
			treeChanged := patchNode(tree, res, config.Settings{})
			if changed != treeChanged {
				t.Fatalf("%s: Node %s: text patch changed=%v, tree patch %v", name, it.Name, changed, treeChanged)
			}
			var got yaml.Node
			if err := yaml.Unmarshal(text, &got); err != nil {
				t.Fatalf("%s: the patched text does not parse: %v\n%s", name, err, text)
			}
			if a, b := bareYAML(t, krm.DocContent(&got).Content[0]), bareYAML(t, tree); a != b {
				t.Errorf("%s: Node %s: text patch gives\n%s\ntree patch gives\n%s", name, it.Name, a, b)
			}
		}
	}
}

func TestNodeTextPatchLeavesTaintsToTheTree(t *testing.T) {
	it := exportedNodes(t)[0]
	old := nodeState(t, it)
	res := &master.NodeResult{Name: it.Name, State: cloneState(old)}
	res.State.Taints = append(append([]api.Taint(nil), old.Taints...), api.Taint{Key: "example.com/gpu", Effect: "NoSchedule"})
	if _, _, ok := patchNodeText(it, &old, res, config.Settings{}); ok {
		t.Error("a taint change was patched in text")
	}
}

// nodeState is the state of a Node item as read, decoded from its tree
// (objects.Decode: the lean reader is held to it by internal/fastread's
// differential tests).
func nodeState(t *testing.T, it *krm.Item) objects.NodeState {
	t.Helper()
	tree, err := it.ParseTree()
	if err != nil {
		t.Fatal(err)
	}
	n, ok := objects.Decode(tree).Obj.(*objects.Node)
	if !ok {
		t.Fatalf("Node %s does not decode as a Node", it.Name)
	}
	return n.State
}

func cloneState(s objects.NodeState) objects.NodeState {
	c := s
	c.Labels, c.Annotations = cloneMap(s.Labels), cloneMap(s.Annotations)
	c.Capacity, c.Allocatable = cloneMap(s.Capacity), cloneMap(s.Allocatable)
	return c
}

func cloneMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// bareYAML encodes n without comments, for comparing what two trees say.
func bareYAML(t *testing.T, n *yaml.Node) string {
	t.Helper()
	var strip func(*yaml.Node) *yaml.Node
	strip = func(n *yaml.Node) *yaml.Node {
		c := *n
		c.HeadComment, c.LineComment, c.FootComment = "", "", ""
		c.Style &^= yaml.FlowStyle
		c.Content = nil
		for _, k := range n.Content {
			c.Content = append(c.Content, strip(k))
		}
		return &c
	}
	text, err := krm.Encode(strip(n))
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}
