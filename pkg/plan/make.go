package plan

import (
	"github.com/nfd-fn/nfd-fn/internal/parallel"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// Input is what a plan is made of.
type Input struct {
	// Head holds the snapshot (NodeFeatures, Nodes, Namespaces) and the
	// rules after the change.
	Head *objects.Set
	// Base holds the rules before the change (its NodeFeatureRules and
	// NodeFeatureGroups; the snapshot is Head's). Nil, with BaseOptions
	// nil too: the before side is the snapshot's Node objects as they are.
	Base *objects.Set
	// BaseOptions, when not nil, are the before side's settings (another
	// nfd-master configuration, NFD release or worker configuration): the
	// before side is then the render of Base's rules, or of Head's when
	// Base is nil, with them.
	BaseOptions *master.Options
	// Sides say what differs between the sides besides the rules, for the
	// headline ("worker config: sources.pci.deviceLabelFields [vendor] →
	// [vendor device]", "NFD v0.17.1 → v0.19.0").
	Sides []string
	// Workloads are the workloads whose eligible nodes are planned.
	Workloads []*workload.Workload
	// Options are nfd-master's settings, the same for both sides.
	Options master.Options
	// Problems are what went wrong reading the input; they count as the
	// plan's diagnostics (see BaseSide for the base rules' files).
	Problems diag.List
	// Causes asks for the rules behind each workload's lost nodes
	// (WorkloadChange.Causes, which the CI reports name); without it they
	// are not looked for.
	Causes bool
	// BaseProblems are the before side's problems in reading and
	// admitting its rules, unmarked: those Problems has too are not
	// repeated, the others are the before side's (BaseSide) and, on
	// rules, make Plan.Rules.
	BaseProblems diag.List
}

// Make renders both sides and compares them.
func Make(in Input) *Plan {
	head, base := renderSides(in)
	before, side := beforeStates(in, head, base)
	p := &Plan{Nodes: []NodeChange{}, Workloads: []WorkloadChange{}, Summary: Summary{Before: side.name, Sides: in.Sides}}
	p.Diagnostics = append(p.Diagnostics, in.Problems...)
	headDiags := headDiagnostics(in.Head, head)
	baseOnly, headOnly := side.diags(append(append(diag.List(nil), in.Problems...), headDiags...))
	prefix := BaseSidePrefix
	if in.BaseOptions != nil {
		prefix = BeforeSidePrefix
	}
	p.Diagnostics = append(p.Diagnostics, markBefore(baseOnly, prefix)...)
	p.Diagnostics = append(p.Diagnostics, headDiags...)
	p.Diagnostics = append(p.Diagnostics, takeover(in.Head, in.Options, head)...)
	if side.name == BeforeNodes {
		p.Diagnostics = append(p.Diagnostics, nodesWithoutBefore(in.Head, head)...)
	}
	if in.Base != nil || in.BaseOptions != nil {
		p.Rules = verdicts(baseOnly, headOnly, side.groups, head.Groups)
	}
	after := make([]*objects.NodeState, len(head.Nodes))
	names := make([]string, len(head.Nodes))
	for i := range head.Nodes {
		names[i], after[i] = head.Nodes[i].Name, &head.Nodes[i].State
	}
	p.Nodes = append(p.Nodes, diffNodes(names, before, after)...)
	p.Workloads, p.Diagnostics = planWorkloads(in.Workloads, names, before, after, p.Diagnostics)
	if in.Causes {
		causesOf(p, in, sides{names: names, before: before, after: after, head: head, base: side})
	}
	p.Diagnostics = p.Diagnostics.FoldObjects()
	p.summarize(len(names), len(in.Workloads))
	p.Summary.Unplannable = unplannable(in.Head)
	return p
}

// unplannable says why the snapshot leaves nothing to plan ("" when it
// does not): it holds NodeFeatures and the API server refuses every one.
func unplannable(set *objects.Set) string {
	refused := 0
	for i := range set.Features {
		if set.Features[i].Rejected {
			refused++
		}
	}
	if refused == 0 || refused < len(set.Features) {
		return ""
	}
	return "every NodeFeature of the snapshot (" + diag.Plural(refused, "NodeFeature") + ") is one the API server refuses, so no node has features to render"
}

// renderStates renders every node of set, keeping each node's result but
// not its merged features: a plan compares states, so a fleet's
// NodeFeatures are read a node at a time, never all held at once (those
// read lean decode only the features the rules match on).
func renderStates(set *objects.Set, opts master.Options) *master.Fleet {
	st := master.Prepare(set, opts).Stream(master.StreamOptions{KeepNodes: true})
	st.Render(st.All(), nil)
	return st.Finish()
}

// takeover is lint's takeover check (NFD314) of the head render: the
// Nodes whose managedFields show nfd-master owning fields the plan's
// apply would share or orphan.
func takeover(set *objects.Set, opts master.Options, head *master.Fleet) diag.List {
	t := lint.NewTakeover(set, opts)
	for i := range head.Nodes {
		t.Add(&head.Nodes[i])
	}
	return t.Findings()
}

// diffNodes are the nodes whose state changes, in the order given; the
// nodes are compared on a worker pool.
func diffNodes(names []string, before, after []*objects.NodeState) []NodeChange {
	type diffed struct {
		c  NodeChange
		ok bool
	}
	all := make([]diffed, len(names))
	parallel.For(len(names), func(i int) {
		all[i].c, all[i].ok = diffNode(names[i], before[i], after[i])
	})
	var out []NodeChange
	for _, d := range all {
		if d.ok {
			out = append(out, d.c)
		}
	}
	return out
}

// renderSides renders the head side and, when the before side renders the
// same rules with settings of its own, the before side too, both in one
// pass (master.RenderPair: a worker configuration change shares most of
// each node's render); base is nil when the before side is left to
// beforeStates.
func renderSides(in Input) (head, base *master.Fleet) {
	if in.Base != nil || in.BaseOptions == nil {
		return renderStates(in.Head, in.Options), nil
	}
	return master.RenderPair(master.Prepare(in.Head, in.Options), master.Prepare(BaseSet(in.Head, in.Head), *in.BaseOptions))
}

// headDiagnostics are the head render's problems, placed in their files.
func headDiagnostics(set *objects.Set, f *master.Fleet) diag.List {
	ds := append(append(diag.List(nil), f.Diagnostics...), f.NodeDiagnostics...)
	set.Place(ds)
	return ds
}

func (p *Plan) summarize(nodes, workloads int) {
	s := &p.Summary
	s.Nodes, s.NodesChanged = nodes, len(p.Nodes)
	s.Changes = len(p.Changes())
	s.Workloads, s.WorkloadsChanged = workloads, len(p.Workloads)
	for i := range p.Workloads {
		if p.Workloads[i].LeftWithout() {
			s.WorkloadsWithoutNodes++
		}
	}
	c := p.Diagnostics.Counts()
	s.Errors, s.Warnings = c[diag.Error], c[diag.Warning]
}
