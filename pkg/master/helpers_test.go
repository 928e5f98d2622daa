package master

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// The tests build their input as YAML, the way users write it, and read it
// with testkit.ReadText, as internal/inputs reads a file parsed whole.

const nfdAPI = "apiVersion: nfd.k8s-sigs.io/v1alpha1\n"

// nodeFeature is a NodeFeature in namespace ns attached to node (no
// node-name label when node is ""); spec is the spec in flow style.
func nodeFeature(ns, name, node, spec string) string {
	labels := ""
	if node != "" {
		labels = "  labels: {nfd.node.kubernetes.io/node-name: " + node + "}\n"
	}
	return nfdAPI + "kind: NodeFeature\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\n" + labels + "spec: " + spec + "\n"
}

// workerFeature is the worker's own NodeFeature for node: in NFD's
// namespace, named after the node, reporting system.name.
func workerFeature(node, features string) string {
	return nodeFeature(DefaultNamespace, node, node, "{features: "+features+"}")
}

// hostFeatures are features with system.name's nodename and extra
// attribute sets (flow-style entries of attributes).
func hostFeatures(node string, attrs ...string) string {
	return "{attributes: {" + strings.Join(append([]string{"system.name: {elements: {nodename: " + node + "}}"}, attrs...), ", ") + "}}"
}

// ruleObject is a NodeFeatureRule; rules is the block-style list under
// spec.rules, indented by two spaces.
func ruleObject(name, rules string) string {
	return nfdAPI + "kind: NodeFeatureRule\nmetadata: {name: " + name + "}\nspec:\n  rules:\n" + rules
}

// groupObject is a NodeFeatureGroup; rules is the block-style list under
// spec.featureGroupRules.
func groupObject(name, rules string) string {
	return nfdAPI + "kind: NodeFeatureGroup\nmetadata: {name: " + name + ", namespace: " + DefaultNamespace + "}\nspec:\n  featureGroupRules:\n" + rules
}

// kubeNode is a v1 Node; meta and status are flow-style mappings ("" for none).
func kubeNode(name, meta, spec, status string) string {
	s := "apiVersion: v1\nkind: Node\nmetadata: {name: " + name
	if meta != "" {
		s += ", " + meta
	}
	s += "}\n"
	if spec != "" {
		s += "spec: " + spec + "\n"
	}
	if status != "" {
		s += "status: " + status + "\n"
	}
	return s
}

// readSet reads the documents as one file; any diagnostic fails the test.
func readSet(t *testing.T, docs ...string) *objects.Set {
	t.Helper()
	s := &objects.Set{}
	if ds := testkit.ReadText(s, []byte(strings.Join(docs, "---\n")), "in.yaml", false); len(ds) != 0 {
		t.Fatalf("test input does not read cleanly:\n%s", ds.Error())
	}
	return s
}

// groupsOn are the default options with NodeFeatureGroups evaluated.
func groupsOn() Options {
	o := DefaultOptions()
	o.NodeFeatureGroups = true
	return o
}

func nodeNames(f *Fleet) []string {
	out := []string{}
	for _, n := range f.Nodes {
		out = append(out, n.Name)
	}
	return out
}

func nodeResult(t *testing.T, f *Fleet, name string) *NodeResult {
	t.Helper()
	for i := range f.Nodes {
		if f.Nodes[i].Name == name {
			return &f.Nodes[i]
		}
	}
	t.Fatalf("node %q not rendered (have %v)", name, nodeNames(f))
	return nil
}

func members(f *Fleet) map[string][]string {
	out := map[string][]string{}
	for _, g := range f.Groups {
		out[g.Group.Obj.Metadata.Name] = g.Members
	}
	return out
}

// lines describes diagnostics one per line as
// "severity check object field: message [nodes]".
func lines(l diag.List) []string {
	out := []string{}
	for _, d := range l {
		s := fmt.Sprintf("%s %s %s %s: %s", d.Severity, d.Check, d.Object, d.Field, d.Message)
		if len(d.Nodes) > 0 {
			s += " " + fmt.Sprint(d.Nodes)
		}
		out = append(out, s)
	}
	return out
}

// featureLabels keeps the labels in the feature namespace, for tests that
// do not care about the others.
func featureLabels(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if strings.HasPrefix(k, "feature.node.kubernetes.io/") {
			out[strings.TrimPrefix(k, "feature.node.kubernetes.io/")] = v
		}
	}
	return out
}

// renderAll renders every node of p and the groups as a render does (a
// Stream over every node), keeping every node's result and merged
// features for the test to look at.
func renderAll(p *Pipeline) *Fleet {
	st := p.Stream(StreamOptions{KeepNodes: true, KeepFeatures: true})
	st.Render(st.All(), nil)
	return st.Finish()
}

// renderSet prepares set's fleet and renders all of it (renderAll).
func renderSet(set *objects.Set, opts Options) *Fleet {
	return renderAll(Prepare(set, opts))
}
