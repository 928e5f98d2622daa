package master

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/labels"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Fleet is what nfd-master makes of a set of objects: every node rendered,
// every NodeFeatureGroup's members, and every problem on the way.
type Fleet struct {
	// Nodes are sorted by name: every node with a NodeFeature or a Node
	// object.
	Nodes []NodeResult
	// Groups are the set's NodeFeatureGroups that decoded cleanly, in
	// input order; empty when the NodeFeatureGroup API is off.
	Groups []GroupResult
	// Diagnostics are the problems of the input and the compiled rules,
	// static rule failures naming the nodes they hit.
	Diagnostics diag.List
	// NodeDiagnostics are the per-node problems, one per distinct problem
	// naming the nodes it was found on, sorted by object, field and
	// message.
	NodeDiagnostics diag.List
}

// GroupResult is one NodeFeatureGroup's membership.
type GroupResult struct {
	Group *objects.Object[*api.NodeFeatureGroup]
	// Members are the names nfd-master writes into status.nodes.
	Members []string
	// StatusKept says nfd-master never writes this group's status, so the
	// input's stays as it is (Options.GroupStatusKept).
	StatusKept bool
}

// Pipeline is a set of objects prepared for rendering: the rules compiled
// once and the NodeFeatures attached to their nodes. Render, validate,
// explain, nova and plan all start here.
type Pipeline struct {
	set      *objects.Set
	opts     Options
	renderer *Renderer
	features map[string][]NodeFeatureObject
	nodes    map[string]*objects.Object[*objects.Node]
	names    []string
	diags    diag.List
	// namespaces maps the input's Namespaces to their labels.
	namespaces map[string]map[string]string
	// Progress, when set, is called as nodes are rendered with the number
	// done and the total (from several goroutines, never concurrently).
	Progress func(done, total int)
	mu       sync.Mutex
	done     int
}

// Prepare compiles the set's rules and attaches its NodeFeatures and Node
// objects to node names. Problems go to the Fleet's Diagnostics.
func Prepare(set *objects.Set, opts Options) *Pipeline {
	p := &Pipeline{set: set, opts: opts, features: map[string][]NodeFeatureObject{},
		nodes: map[string]*objects.Object[*objects.Node]{}}
	p.attachFeatures()
	p.attachNodes()
	p.names = p.nodeNames()
	rules, diags := engine.CompileAs(opts.NFDRelease(), set.AcceptedRules())
	p.diags = append(p.diags, WithChecks(diags)...)
	p.renderer = NewRenderer(opts, rules)
	p.renderer.templated = templatedRules(set.AcceptedRules(), &p.opts)
	return p
}

// NodeNames are the names of the nodes the pipeline renders, sorted.
func (p *Pipeline) NodeNames() []string { return p.names }

// HasNode reports whether a NodeFeature is attached to the node.
func (p *Pipeline) HasNode(name string) bool { _, ok := p.features[name]; return ok }

// progress reports one more node rendered, when Progress is set.
func (p *Pipeline) progress(total int) {
	if p.Progress == nil {
		return
	}
	p.mu.Lock()
	p.done++
	p.Progress(p.done, total)
	p.mu.Unlock()
}

// Explain renders one node, recording where each label came from, and
// traces every rule on it; ok is false when no NodeFeature is attached to
// the node.
func (p *Pipeline) Explain(node string) (res NodeResult, traces []engine.RuleTrace, ok bool) {
	objs, ok := p.features[node]
	if !ok {
		return NodeResult{}, nil, false
	}
	res, traces = p.renderer.ExplainNode(node, objs, p.existing(node))
	return res, traces, true
}

func (p *Pipeline) existing(node string) *NodeState {
	if o := p.nodes[node]; o != nil {
		return &o.Obj.State
	}
	return nil
}

// attachFeatures groups the accepted NodeFeatures by their node-name
// label, as nfd-master selects them.
func (p *Pipeline) attachFeatures() {
	for i := range p.set.Features {
		o := &p.set.Features[i]
		if !o.Used() {
			continue
		}
		node := o.Obj.Metadata.Labels[api.NodeNameLabel]
		ref := objects.FeatureRef(o.Obj)
		if !p.namespaceSelected(o.Obj.Metadata.Namespace) {
			p.diags = append(p.diags, diag.Diagnostic{Severity: diag.Info, Check: "namespace-not-selected", Object: ref,
				Pos:     o.Origin.Position("metadata.namespace", false),
				Message: fmt.Sprintf("namespace %q is not selected by nodeFeatureNamespaceSelector %q, so nfd-master does not read this NodeFeature", o.Obj.Metadata.Namespace, p.opts.NamespaceSelector)})
			continue
		}
		if node == "" {
			p.diags = append(p.diags, diag.Diagnostic{Severity: diag.Warning, Check: "no-node-name", Object: ref, Field: "metadata.labels",
				Pos:     o.Origin.Position("metadata.labels", false),
				Message: fmt.Sprintf("NodeFeature has no %s label, so nfd-master attaches it to no node", api.NodeNameLabel)})
			continue
		}
		if d, bad := invalidNodeName(o, node); bad {
			p.diags = append(p.diags, d)
			if d.Severity == diag.Error && !objects.SafeName(node) {
				continue
			}
		}
		p.features[node] = append(p.features[node], NodeFeatureObject{Ref: ref, Spec: &o.Obj.Spec, Lean: o.Lean})
	}
}

// invalidNodeName checks the node-name label of a NodeFeature: it becomes
// a Node name, and so a file path (nodes/<name>.yaml), a Nova provider
// name and text on terminals. A name the API server refuses for a Node is
// an error. One that is not even safe (objects.SafeName: a path
// separator, "..", a control character, an overlong name) is left out; a
// safe one (upper case, say) is still rendered, as nfd-master's code
// renders it when it meets one.
func invalidNodeName(o *objects.Object[*api.NodeFeature], node string) (diag.Diagnostic, bool) {
	why := objects.InvalidName("Node", node)
	if why == "" {
		return diag.Diagnostic{}, false
	}
	field := ys.JoinKey("metadata.labels", api.NodeNameLabel)
	return diag.Diagnostic{Severity: diag.Error, Check: "node-name", Object: objects.FeatureRef(o.Obj), Field: field,
		Pos:     o.Origin.Position(field, false),
		Message: nodeNameMessage(node, why)}, true
}

// namespaceSelected applies nodeFeatureNamespaceSelector to the labels of
// the input's Namespace objects. A namespace the input does not hold has
// only the label the API server gives every namespace,
// kubernetes.io/metadata.name.
func (p *Pipeline) namespaceSelected(ns string) bool {
	if p.opts.NamespaceSelector == nil {
		return true
	}
	if p.namespaces == nil {
		p.namespaces = map[string]map[string]string{}
		for _, o := range p.set.Namespaces {
			p.namespaces[o.Obj.Name] = o.Obj.Labels
		}
	}
	l, ok := p.namespaces[ns]
	if !ok {
		l = map[string]string{"kubernetes.io/metadata.name": ns}
	}
	return p.opts.NamespaceSelector.Matches(labels.Set(l))
}

// attachNodes indexes the Node objects in use by name (of a Node given
// twice, the last; objects.Set reports the duplicate).
func (p *Pipeline) attachNodes() {
	for i := range p.set.Nodes {
		if o := &p.set.Nodes[i]; o.Used() {
			p.nodes[o.Obj.Name] = o
		}
	}
}

func (p *Pipeline) nodeNames() []string {
	names := make([]string, 0, len(p.features)+len(p.nodes))
	for n := range p.features {
		names = append(names, n)
	}
	for n := range p.nodes {
		if _, ok := p.features[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// WithChecks names the check behind each compile diagnostic that does not
// name one, from its field path.
func WithChecks(ds []engine.Diagnostic) diag.List {
	out := make(diag.List, len(ds))
	for i, d := range ds {
		if d.Check == "" {
			d.Check = compileCheck(d.Field)
		}
		out[i] = d
	}
	return out
}

func compileCheck(field string) string {
	switch {
	case strings.HasSuffix(field, ".op"):
		return "invalid-op"
	case strings.HasSuffix(field, ".value"), strings.HasSuffix(field, ".type"):
		return "invalid-value"
	case strings.HasSuffix(field, "Template"):
		return "template"
	case strings.HasSuffix(field, ".feature"):
		return "feature-name"
	case strings.HasSuffix(field, ".name"):
		return "rule-name"
	}
	return "rule"
}

func nodeNameMessage(node, why string) string {
	if !objects.SafeName(node) {
		return fmt.Sprintf("%s is not a valid node name (%s): no Node can have it, so nfd-fn leaves this NodeFeature out", objects.ShowName(node), why)
	}
	return fmt.Sprintf("%s is not a valid node name (%s): no Node in a cluster can have it; nfd-fn renders it as nfd-master's code does", objects.ShowName(node), why)
}
