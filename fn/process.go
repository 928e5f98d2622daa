package fn

import (
	"bytes"
	"fmt"
	"io"
	"sort"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/featuregate"
	"github.com/nfd-fn/nfd-fn/pkg/render"
)

// NodePathPrefix is the directory, relative to the package, that new Node
// items are given in their path annotations: nodes/<node-name>.yaml.
const NodePathPrefix = "nodes/"

// Run reads a ResourceList from input, processes it according to its
// functionConfig and writes the output ResourceList to out. It returns the
// exit code: 1 when any error result was produced. The output always holds
// every input item and every result; only an unreadable input fails early,
// with an error and no output.
func Run(input []byte, out *bytes.Buffer, opts RunOptions) (int, error) {
	rl, err := krm.Read(input, krm.ReadOptions{Decode: decodeItem, Keep: keepItemNode})
	if err != nil {
		return 1, err
	}
	r := &results{items: rl.Items}
	settings, problems := loadConfig(rl.FunctionConfig)
	if opts.ForceMode != "" {
		settings.Mode = opts.ForceMode
	}
	if opts.NovaFile != nil {
		settings.Nova.enabled, settings.Nova.capture = true, opts.NovaFile
	}
	for _, p := range problems {
		r.config(rl.FunctionConfig, p)
	}
	switch settings.Mode {
	case "validate":
		validateList(rl, settings, r)
	case "discover":
		discoverList(rl, opts.Discover, r)
	default:
		renderList(rl, settings, r)
	}
	all := r.all()
	if err := rl.Write(out, all); err != nil {
		return 1, err
	}
	if opts.ErrorLog != nil {
		krm.ErrorLines(opts.ErrorLog, all)
	}
	return r.exitCode(), nil
}

// RunOptions adjust Run from the command line.
type RunOptions struct {
	// ForceMode overrides the functionConfig's mode when set.
	ForceMode string
	// Discover snapshots the host for mode discover.
	Discover DiscoverFunc
	// ErrorLog, when set, receives one line per error result, for
	// orchestrators that show a failing function's stderr but not its
	// results (kustomize).
	ErrorLog io.Writer
	// NovaFile, when set, switches the Nova provider config on and
	// receives the file (nfd-fn render --output nova).
	NovaFile *[]byte
}

// inputs are the typed objects of a ResourceList.
type inputs struct {
	features map[string][]render.NodeFeatureObject
	rules    []*api.NodeFeatureRule
	groups   []*groupItem
	nodes    map[string]*krm.Item
}

type groupItem struct {
	it  *krm.Item
	obj *api.NodeFeatureGroup
}

// collectInputs sorts the items by kind and reports unreadable ones.
func collectInputs(rl *krm.ResourceList, r *results) inputs {
	in := inputs{features: map[string][]render.NodeFeatureObject{}, nodes: map[string]*krm.Item{}}
	for _, it := range rl.Items {
		if it.ParseErr != nil {
			r.add(engine.SeverityError, it, "", fmt.Sprintf("items[%d] (line %d) cannot be read and is left out of the output: %v", it.Pos, it.Line, it.ParseErr))
			continue
		}
		if isNode(it.APIVersion, it.Kind) {
			if prev, dup := in.nodes[it.Name]; dup {
				r.add(engine.SeverityError, it, "metadata.name", fmt.Sprintf("duplicate Node %q (also at %s); only the first is updated", it.Name, prev.File))
				continue
			}
			in.nodes[it.Name] = it
			continue
		}
		d, ok := it.Decoded.(*decodedNFD)
		if !ok {
			if isNFD(it.APIVersion) {
				r.add(engine.SeverityWarning, it, "kind", fmt.Sprintf("unknown NFD kind %q passes through untouched", it.Kind))
			}
			continue
		}
		if len(d.errs) > 0 {
			for _, e := range d.errs {
				r.add(engine.SeverityError, it, e.Path, e.Msg+fmt.Sprintf("; the API server would reject this %s, so nfd-fn ignores it", it.Kind))
			}
			continue
		}
		switch o := d.obj.(type) {
		case *api.NodeFeature:
			in.addNodeFeature(it, o, r)
		case *api.NodeFeatureRule:
			in.rules = append(in.rules, o)
		case *api.NodeFeatureGroup:
			in.groups = append(in.groups, &groupItem{it: it, obj: o})
		}
	}
	return in
}

func (in *inputs) addNodeFeature(it *krm.Item, o *api.NodeFeature, r *results) {
	node := o.Metadata.Labels[api.NodeNameLabel]
	if node == "" {
		r.add(engine.SeverityWarning, it, "metadata.labels",
			fmt.Sprintf("NodeFeature has no %s label, so nfd-master attaches it to no node", api.NodeNameLabel))
		return
	}
	ref := engine.ObjectRef{Kind: api.KindNodeFeature, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
	in.features[node] = append(in.features[node], render.NodeFeatureObject{Ref: ref, Spec: &o.Spec})
}

// nodeNames is every node to render: those with NodeFeatures and those
// given as Node objects, sorted.
func (in *inputs) nodeNames() []string {
	seen := map[string]bool{}
	var names []string
	for n := range in.features {
		seen[n] = true
		names = append(names, n)
	}
	for n := range in.nodes {
		if !seen[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func renderList(rl *krm.ResourceList, s Settings, r *results) {
	in := collectInputs(rl, r)
	rules, diags := engine.Compile(in.rules)
	r.diagnostics(diags)
	renderer := render.NewRenderer(s.Options, rules)
	names := in.nodeNames()
	rendered := make([]render.NodeResult, len(names))
	krm.Parallel(len(names), func(i int) {
		var existing *render.NodeState
		if it := in.nodes[names[i]]; it != nil {
			existing = nodeState(it.Node)
		}
		rendered[i] = renderer.RenderNode(names[i], in.features[names[i]], existing)
	})
	for i := range rendered {
		r.problems(rendered[i].Name, rendered[i].Problems)
		writeNode(rl, in.nodes[names[i]], &rendered[i])
	}
	if s.Gates.Enabled(featuregate.NodeFeatureGroupAPI) {
		renderGroups(in.groups, rendered, r)
	}
	lintRendered(rl, s, rendered, r)
	explainNode(in, renderer, s, r)
	renderNova(rl, s, rendered, r)
}

// renderGroups evaluates every NodeFeatureGroup on every node and writes
// the members into the group's status.nodes.
func renderGroups(groups []*groupItem, nodes []render.NodeResult, r *results) {
	for _, g := range groups {
		cg, diags := engine.CompileGroup(g.obj)
		r.diagnostics(diags)
		var members []string
		seen := map[string]bool{}
		for i := range nodes {
			ok, errs := cg.Matches(nodes[i].Features)
			for _, e := range errs {
				r.problems(nodes[i].Name, []render.Problem{render.GroupFailure(e)})
			}
			name := memberName(&nodes[i])
			if ok && !seen[name] {
				seen[name] = true
				members = append(members, name)
			}
		}
		setGroupStatus(g.it, members)
	}
}

// memberName is the name nfd-master records for a member: the node name
// reported in the system.name feature, falling back to the node's name.
func memberName(n *render.NodeResult) string {
	if v := n.Features.Attributes["system.name"].Elements["nodename"]; v != "" {
		return v
	}
	return n.Name
}

func setGroupStatus(it *krm.Item, members []string) {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, m := range members {
		list.Content = append(list.Content, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{krm.StrNode("name"), krm.StrNode(m)}})
	}
	old := krm.ValueAt(krm.MapAt(it.Node, "status"), "nodes")
	if old != nil && sameMembers(old, members) {
		return
	}
	if len(members) == 0 {
		if old == nil {
			return
		}
		list.Style = yaml.FlowStyle
	}
	krm.SetField(krm.EnsureMap(it.Node, "status"), "nodes", list)
	it.Changed = true
}

func sameMembers(n *yaml.Node, members []string) bool {
	if n.Kind != yaml.SequenceNode || len(n.Content) != len(members) {
		return false
	}
	for i, c := range n.Content {
		if krm.ScalarAt(c, "name") != members[i] {
			return false
		}
	}
	return true
}
