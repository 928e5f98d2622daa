package master

import (
	"sort"

	"github.com/nfd-fn/nfd-fn/internal/parallel"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Stream renders a fleet a few nodes at a time, for callers that write
// each node as it is rendered and keep none of them: a fleet of any size
// then renders in memory that does not grow with it. What the fleet-wide
// steps need of each node (its problems, folded; its group memberships;
// what Observe's functions gather) is taken the first time the node is
// rendered; a node may be rendered again later (to write it) at no cost to
// those steps.
type Stream struct {
	p    *Pipeline
	opts StreamOptions
	f    *Fleet
	fold *folder
	// groups are the compiled NodeFeatureGroups; member[i] the groups
	// node i is a member of, once it has been rendered.
	groups []compiledGroup
	member [][]groupMatch
	// seen[i] is set once node i has been rendered and recorded.
	seen     []bool
	observer []func(*NodeResult)
	// only names the features the rules and groups match on: the only
	// ones decoded of NodeFeatures read lean (nil: all of them).
	only map[string]bool
}

// StreamOptions say what a Stream keeps of each node for Finish's Fleet.
type StreamOptions struct {
	// KeepNodes keeps every node's result in Fleet.Nodes (memory grows
	// with the fleet); without it Fleet.Nodes is empty.
	KeepNodes bool
	// KeepFeatures keeps NodeResult.Features, the node's merged
	// NodeFeatures; without it they are let go once the node's group
	// memberships are known, and of NodeFeatures read lean only the
	// features the rules and groups match on are decoded at all.
	KeepFeatures bool
}

// Stream starts a render of the pipeline's nodes.
func (p *Pipeline) Stream(opts StreamOptions) *Stream {
	f := &Fleet{Diagnostics: append(diag.List(nil), p.diags...)}
	s := &Stream{p: p, opts: opts, f: f, seen: make([]bool, len(p.names))}
	if p.opts.EvaluatesGroups() {
		s.groups = p.compileGroups(f)
		s.member = make([][]groupMatch, len(p.names))
	}
	if opts.KeepNodes {
		f.Nodes = make([]NodeResult, len(p.names))
	}
	if !opts.KeepFeatures {
		s.only = s.featureNames()
	}
	s.fold = newFolder(f)
	return s
}

// featureNames are the features the rules and groups match on, and the
// one group membership reads (memberName).
func (s *Stream) featureNames() map[string]bool {
	only := map[string]bool{}
	s.p.renderer.rules.FeatureNames(only)
	for _, g := range s.groups {
		g.cg.FeatureNames(only)
	}
	if len(s.groups) > 0 {
		only["system.name"] = true
	}
	if w := s.p.opts.WorkerLabels; w != nil && !w.FeatureNames(only) {
		return nil
	}
	return only
}

// Observe adds a function that is told of every node once, the first
// time it is rendered, from one goroutine at a time; the result must not
// be kept (it is let go or reused once the function returns).
func (s *Stream) Observe(f func(*NodeResult)) { s.observer = append(s.observer, f) }

// HasGroups reports whether NodeFeatureGroups are rendered: their members
// (Groups) are known only once every node has been rendered.
func (s *Stream) HasGroups() bool { return len(s.groups) > 0 }

// All is the index of every node, in NodeNames order.
func (s *Stream) All() []int {
	out := make([]int, len(s.p.names))
	for i := range out {
		out[i] = i
	}
	return out
}

// Render renders the nodes at indices (into NodeNames) on a worker pool
// and, when emit is not nil, calls it with each result in the order of
// indices, from the calling goroutine; the result is not valid after emit
// returns. Only a few nodes are held at a time.
func (s *Stream) Render(indices []int, emit func(i int, res *NodeResult)) {
	s.RenderWith(indices, nil, func(i int, res *NodeResult, _ any) {
		if emit != nil {
			emit(i, res)
		}
	})
}

// RenderWith is Render with a step, then (when not nil), run on the
// worker right after each node is rendered (to build and encode what is
// written of it, say); emit receives its result with the node's.
func (s *Stream) RenderWith(indices []int, then func(res *NodeResult) any, emit func(i int, res *NodeResult, v any)) {
	type rendered struct {
		res *NodeResult
		v   any
	}
	parallel.Ordered(len(indices), func(k int) rendered {
		res := s.RenderNode(indices[k])
		var v any
		if then != nil {
			v = then(res)
		}
		return rendered{res, v}
	}, func(k int, r rendered) {
		i := indices[k]
		s.Record(i, r.res)
		emit(i, r.res, r.v)
	})
}

// Index is the index in NodeNames of the node called name.
func (s *Stream) Index(name string) (int, bool) {
	i := sort.SearchStrings(s.p.names, name)
	return i, i < len(s.p.names) && s.p.names[i] == name
}

// RenderNode renders node i (an index into NodeNames) and, the first
// time, its group memberships, for callers that drive the rendering
// themselves (as the writer of exported Nodes does); Render is RenderNode
// and Record on a worker pool. It may run on several goroutines at once,
// for different nodes.
func (s *Stream) RenderNode(i int) *NodeResult {
	name := s.p.names[i]
	res := s.p.renderer.RenderNodeReading(s.only, name, s.p.features[name], s.p.existing(name))
	return s.rendered(i, res)
}

// rendered completes node i's fresh result: its group memberships the
// first time, and its features let go unless they are kept.
func (s *Stream) rendered(i int, res NodeResult) *NodeResult {
	name := s.p.names[i]
	if !s.seen[i] {
		if s.p.HasNode(name) && s.member != nil {
			s.member[i] = matchGroups(s.groups, &res)
		}
		s.p.progress(len(s.p.names))
	}
	if !s.opts.KeepFeatures {
		res.Features = nil
	}
	return &res
}

// Record takes what the fleet-wide steps need of node i's first render
// (res, from RenderNode); it does nothing for a node already recorded.
// Calls come from one goroutine at a time, and the result must not be
// kept afterwards.
func (s *Stream) Record(i int, res *NodeResult) {
	if s.seen[i] {
		return
	}
	s.seen[i] = true
	s.fold.add(res)
	for _, f := range s.observer {
		f(res)
	}
	if s.opts.KeepNodes {
		s.f.Nodes[i] = *res
	}
}

// Groups are the NodeFeatureGroups' members; they are complete once every
// node has been rendered.
func (s *Stream) Groups() []GroupResult { return groupResults(s.groups, s.member) }

// Finish returns the fleet: the diagnostics folded, the groups' members,
// and with KeepNodes every node's result. Every node must have been
// rendered.
func (s *Stream) Finish() *Fleet {
	s.f.Groups = s.Groups()
	s.fold.finish()
	return s.f
}
