package master

import (
	"maps"
	"reflect"
	"slices"

	"github.com/nfd-fn/nfd-fn/internal/parallel"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// RenderPair renders every node of two pipelines, keeping every node's
// result (StreamOptions.KeepNodes), and returns their fleets: the same
// fleets as two Streams would give. When the pipelines hold the same
// objects and differ only in their worker configuration
// (Options.WorkerLabels, both leaving the same features published), a
// plan's two sides of a worker configuration change, each node is
// rendered for both at once, sharing what the two sides have in common:
// its NodeFeatures are decoded once, the rules run once (they match on
// features, which both sides publish alike, never on the worker's
// labels), and a label both sides ask for with the same value from the
// same object is checked against nfd-master's policy once.
func RenderPair(head, base *Pipeline) (*Fleet, *Fleet) {
	hs, bs := head.Stream(StreamOptions{KeepNodes: true}), base.Stream(StreamOptions{KeepNodes: true})
	if !pairable(head, base) {
		hs.Render(hs.All(), nil)
		bs.Render(bs.All(), nil)
		return hs.Finish(), bs.Finish()
	}
	var only map[string]bool
	if hs.only != nil && bs.only != nil {
		only = maps.Clone(hs.only)
		maps.Copy(only, bs.only)
	}
	pub := pairPublisher(head.opts.WorkerLabels, base.opts.WorkerLabels)
	type pair struct{ h, b *NodeResult }
	parallel.Ordered(len(head.names), func(i int) pair {
		h, b := renderPairNode(hs, bs, i, only, pub)
		return pair{h, b}
	}, func(i int, p pair) {
		hs.Record(i, p.h)
		bs.Record(i, p.b)
	})
	return hs.Finish(), bs.Finish()
}

// pairable reports whether two pipelines render the same objects with
// settings that differ at most in the worker configuration, and whose
// worker configurations publish the same features.
func pairable(head, base *Pipeline) bool {
	if head.set == nil || base.set == nil || !sameSlice(head.set.Rules, base.set.Rules) ||
		!sameSlice(head.set.Groups, base.set.Groups) || !sameSlice(head.set.Features, base.set.Features) ||
		!slices.Equal(head.names, base.names) || !sameFeaturesPublished(head.opts.WorkerLabels, base.opts.WorkerLabels) {
		return false
	}
	h, b := head.opts, base.opts
	h.WorkerLabels, b.WorkerLabels = nil, nil
	return reflect.DeepEqual(h, b)
}

// sameSlice reports whether a and b are the very same slice.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// FeatureDropper is a WorkerLabeler that names the features it leaves out
// of what it publishes (core.noPublishFeatures): two configurations
// leaving out the same ones publish the same features.
type FeatureDropper interface {
	DroppedFeatures() []string
}

// sameFeaturesPublished reports whether two worker labelers (nil: the
// spec as published) publish the same features.
func sameFeaturesPublished(a, b WorkerLabeler) bool {
	dropped := func(w WorkerLabeler) ([]string, bool) {
		if w == nil {
			return nil, true
		}
		d, ok := w.(FeatureDropper)
		if !ok {
			return nil, false
		}
		return slices.Sorted(slices.Values(d.DroppedFeatures())), true
	}
	da, oka := dropped(a)
	db, okb := dropped(b)
	return oka && okb && slices.Equal(da, db)
}

// renderPairNode renders node i for both streams, decoding its
// NodeFeatures once. A node whose NodeFeatures cannot be read, or whose
// labels name a feature left undecoded, is rendered by each stream on
// its own, as RenderNode does.
func renderPairNode(hs, bs *Stream, i int, only map[string]bool, pub publishPair) (*NodeResult, *NodeResult) {
	name := hs.p.names[i]
	objs, ok := loadedOnce(hs.p.features[name], bs.p.features[name], only)
	if ok {
		hObjs, bObjs, hRes, bRes := publishedOnce(objs, name, pub)
		sh := &sharing{labels: map[string]sharedLabel{}, published: hObjs != nil}
		if hObjs == nil {
			hObjs, bObjs = objs, objs
		}
		h, unread := hs.p.renderer.renderShared(hRes, hObjs, hs.p.existing(name), only, sh)
		if !unread {
			sh.done = true
			b, unread := bs.p.renderer.renderShared(bRes, bObjs, bs.p.existing(name), only, sh)
			if !unread {
				return hs.rendered(i, h), bs.rendered(i, b)
			}
		}
	}
	return hs.RenderNode(i), bs.RenderNode(i)
}

// publishPair publishes a NodeFeature spec for both sides' worker
// configurations at once (PairedLabeler).
type publishPair func(spec *api.NodeFeatureSpec) (head, base *api.NodeFeatureSpec, headNotes, baseNotes diag.List)

// PairedLabeler is a WorkerLabeler that publishes for itself and another
// configuration at once, making once what both make alike (pkg/discover's
// Labeler: the labels of the sources both configure alike); PairWith
// returns nil when it cannot pair with other.
type PairedLabeler interface {
	PairWith(other any) func(spec *api.NodeFeatureSpec) (mine, theirs *api.NodeFeatureSpec, myNotes, theirNotes diag.List)
}

// pairPublisher is the pair publish of two worker labelers, nil when the
// head's cannot pair with the base's.
func pairPublisher(head, base WorkerLabeler) publishPair {
	p, ok := head.(PairedLabeler)
	if !ok || base == nil {
		return nil
	}
	return p.PairWith(base)
}

// publishedOnce publishes the worker's own NodeFeature of node (the one
// object named after it) for both sides with pub: the two sides' objects,
// and their results holding the publish notes as the merge would have
// put them. It returns nil objects when pub is nil or the node has not
// exactly one such object (each side then publishes in its merge).
func publishedOnce(objs []NodeFeatureObject, node string, pub publishPair) (h, b []NodeFeatureObject, hRes, bRes NodeResult) {
	hRes, bRes = NodeResult{Name: node}, NodeResult{Name: node}
	own := -1
	for i := range objs {
		if objs[i].Ref.Name == node {
			if own >= 0 {
				return nil, nil, hRes, bRes
			}
			own = i
		}
	}
	if pub == nil || own < 0 {
		return nil, nil, hRes, bRes
	}
	hSpec, bSpec, hNotes, bNotes := pub(objs[own].Spec)
	h, b = slices.Clone(objs), slices.Clone(objs)
	h[own].Spec, b[own].Spec = hSpec, bSpec
	hRes.Problems, bRes.Problems = hNotes, bNotes
	return h, b, hRes, bRes
}

// loadedOnce decodes a node's NodeFeature objects (the same on both
// sides) once, keeping the features only names; false when the sides'
// objects differ or one cannot be read.
func loadedOnce(h, b []NodeFeatureObject, only map[string]bool) ([]NodeFeatureObject, bool) {
	if len(h) != len(b) {
		return nil, false
	}
	out := make([]NodeFeatureObject, len(h))
	for i := range h {
		if h[i].Ref != b[i].Ref || h[i].Lean != b[i].Lean || h[i].Spec != b[i].Spec {
			return nil, false
		}
		spec, err := h[i].spec(only)
		if err != nil {
			return nil, false
		}
		out[i] = NodeFeatureObject{Ref: h[i].Ref, Spec: spec}
	}
	return out, true
}

// sharing is what the first side of a paired render of one node leaves
// the second: the rules' outputs on the node's features, and each label's
// verdict. A nil sharing shares nothing.
type sharing struct {
	// done says the first side has been rendered: the second reads.
	done bool
	// published says the worker's own NodeFeature is published already
	// (publishedOnce): the merge must not publish it again.
	published  bool
	features   *api.Features
	rules      []engine.RuleResult
	ruleErrors []*engine.EvalError
	labels     map[string]sharedLabel
}

// sharedLabel is a label the first side filtered: what was asked (value
// and origin) and what nfd-master made of it (the value kept, or the
// problem it was dropped with).
type sharedLabel struct {
	asked   string
	from    origin
	value   string
	problem *diag.Diagnostic
}

// second reports whether sh holds the first side's render.
func (sh *sharing) second() bool { return sh != nil && sh.done }

// keepRules records the first side's rule outputs.
func (sh *sharing) keepRules(f *api.Features, rules []engine.RuleResult, errs []*engine.EvalError) {
	if sh != nil && !sh.done {
		sh.features, sh.rules, sh.ruleErrors = f, rules, errs
	}
}

// keepLabel records the first side's verdict on a label.
func (sh *sharing) keepLabel(key, asked string, from origin, value string, problem *diag.Diagnostic) {
	if sh != nil && !sh.done {
		if problem != nil {
			p := *problem
			problem = &p
		}
		sh.labels[key] = sharedLabel{asked: asked, from: from, value: value, problem: problem}
	}
}

// reuseLabel applies the first side's verdict on a label the second side
// asks for alike (same value, same origin), reporting whether it did.
func (sh *sharing) reuseLabel(key, asked string, from origin, out map[string]string, res *NodeResult) bool {
	if !sh.second() {
		return false
	}
	l, ok := sh.labels[key]
	if !ok || l.asked != asked || l.from != from {
		return false
	}
	if l.problem != nil {
		res.Problems = append(res.Problems, *l.problem)
	} else {
		out[key] = l.value
	}
	return true
}
