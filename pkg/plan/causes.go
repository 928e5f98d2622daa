package plan

import (
	"maps"
	"slices"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// Cause is a rule whose change of output takes nodes from a workload: on
// each of Nodes, undoing Change alone makes the node eligible again, and
// Rule (its object, field and position) is the rule that writes the key
// on the side where it is set. Of a workload's lost nodes, the first
// MaxCauseNodes are examined (Examined says how many were).
type Cause struct {
	Rule     diag.Diagnostic
	Change   string
	Nodes    []string
	Examined int
}

// MaxCauseNodes is how many of a workload's lost nodes causesOf examines:
// a taint that reaches every node of a fleet takes them all from every
// DaemonSet that does not tolerate it, and the first nodes name the rule.
const MaxCauseNodes = 20

// sides are both sides of a plan, node by node in the head fleet's order.
type sides struct {
	names         []string
	before, after []*objects.NodeState
	head          *master.Fleet
	base          side
	// placed are the rules placed in their files so far, by side
	// (removed: the base side) and source.
	placed map[placedRule]diag.Diagnostic
}

// placedRule is a rule of one side.
type placedRule struct {
	base   bool
	source engine.Source
}

// causesOf finds the causes of each workload's lost nodes: the changes on
// a lost node that, undone one at a time, make it eligible again, and the
// rule that made each (the head rule for what is added or changed, the
// base rule for what is removed; unknown when the before side is the
// Node objects, whose labels no rule here wrote).
func causesOf(p *Plan, in Input, s sides) {
	s.placed = map[placedRule]diag.Diagnostic{}
	index := make(map[string]int, len(s.names))
	for i, n := range s.names {
		index[n] = i
	}
	changes := map[string]*NodeChange{}
	for i := range p.Nodes {
		changes[p.Nodes[i].Name] = &p.Nodes[i]
	}
	byRef := map[diag.ObjectRef]*workload.Workload{}
	for _, w := range in.Workloads {
		byRef[w.Ref().Key()] = w
	}
	for k := range p.Workloads {
		wc := &p.Workloads[k]
		w := byRef[diag.ObjectRef{Kind: wc.Kind, Namespace: wc.Namespace, Name: wc.Name}]
		if w == nil || len(wc.LostNodes) == 0 {
			continue
		}
		m, problem := workload.NewMatcher(w)
		if problem != nil {
			continue
		}
		found := map[string]*Cause{}
		examined := wc.LostNodes[:min(len(wc.LostNodes), MaxCauseNodes)]
		for _, node := range examined {
			i, nc := index[node], changes[node]
			if nc == nil {
				continue
			}
			for _, c := range group([]NodeChange{*nc}) {
				if c.Field == Annotations || !m.Eligible(workload.Node(node, undo(s.after[i], s.before[i], &c))) {
					continue
				}
				rule, ok := s.writer(in, i, &c)
				if !ok {
					continue
				}
				what := c.Field.String() + " " + c.Describe(func(s string) string { return s }) + " " + c.Op.String()
				key := rule.Object.String() + "\x00" + rule.Field + "\x00" + what
				if found[key] == nil {
					found[key] = &Cause{Rule: rule, Change: what, Examined: len(examined)}
				}
				found[key].Nodes = append(found[key].Nodes, node)
			}
		}
		for _, key := range slices.Sorted(maps.Keys(found)) {
			wc.Causes = append(wc.Causes, *found[key])
		}
	}
}

// undo is after with the one change c undone from before.
func undo(after, before *objects.NodeState, c *Change) *objects.NodeState {
	st := *after
	switch c.Field {
	case Labels:
		st.Labels = revert(after.Labels, before.Labels, c.Key)
	case ExtendedResources:
		st.Capacity = revert(after.Capacity, before.Capacity, c.Key)
	case Taints:
		st.Taints = nil
		for _, t := range after.Taints {
			if taintOf(t).String() != c.Key {
				st.Taints = append(st.Taints, t)
			}
		}
		for _, t := range before.Taints {
			if taintOf(t).String() == c.Key && c.Op == Removed {
				st.Taints = append(st.Taints, t)
			}
		}
	}
	return &st
}

// revert is m with key as was has it (absent when was lacks it).
func revert(m, was map[string]string, key string) map[string]string {
	out := maps.Clone(m)
	if out == nil {
		out = map[string]string{}
	}
	if v, ok := was[key]; ok {
		out[key] = v
	} else {
		delete(out, key)
	}
	return out
}

// writer is the rule that writes c's key on node i, on the side where it
// is set (the head side unless c removes it), placed in its file.
func (s sides) writer(in Input, i int, c *Change) (diag.Diagnostic, bool) {
	fleet, set := s.head, in.Head
	if c.Op == Removed {
		fleet, set = s.base.fleet, s.base.set
	}
	if fleet == nil || i >= len(fleet.Nodes) || fleet.Nodes[i].Name != s.names[i] {
		return diag.Diagnostic{}, false
	}
	for _, rr := range fleet.Nodes[i].Rules {
		if !writes(&rr, c) {
			continue
		}
		k := placedRule{c.Op == Removed, rr.Source}
		if d, ok := s.placed[k]; ok {
			return d, true
		}
		at := diag.List{{Object: diag.ObjectRef(rr.Source.Object), Field: rr.Source.Field}}
		set.Place(at)
		s.placed[k] = at[0]
		return at[0], true
	}
	return diag.Diagnostic{}, false
}

// writes reports whether the rule's output holds c's key (a label without
// a prefix gets NFD's feature namespace).
func writes(rr *engine.RuleResult, c *Change) bool {
	switch c.Field {
	case Labels:
		for k := range rr.Labels {
			if k == c.Key || (!strings.Contains(k, "/") && api.FeatureLabelNs+"/"+k == c.Key) {
				return true
			}
		}
	case ExtendedResources:
		for k := range rr.ExtendedResources {
			if k == c.Key || (!strings.Contains(k, "/") && api.FeatureLabelNs+"/"+k == c.Key) {
				return true
			}
		}
	case Taints:
		for _, t := range rr.Taints {
			if taintOf(t).String() == c.Key {
				return true
			}
		}
	}
	return false
}
