package plan

import (
	"fmt"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// side is the before side: its name, and its diagnostics compared with
// the head side's (head): those of the before side alone, unmarked, and
// those of the head side alone.
type side struct {
	name  string
	diags func(head diag.List) (baseOnly, headOnly diag.List)
	// groups are the NodeFeatureGroups' members on a rendered before side.
	groups []master.GroupResult
	// fleet and set are the rendered before side's nodes and objects (nil
	// when the before side is the Node objects), for the rules a change
	// undoes (causesOf).
	fleet *master.Fleet
	set   *objects.Set
}

// beforeStates is every head node's state on the before side, in the
// head fleet's order: the Node object as it is (an empty state for a node
// without one), or the node rendered with the base rules (base, when
// renderSides rendered it already).
func beforeStates(in Input, head, base *master.Fleet) ([]*objects.NodeState, side) {
	out := make([]*objects.NodeState, len(head.Nodes))
	if in.Base == nil && in.BaseOptions == nil {
		nodes := map[string]*objects.NodeState{}
		for i := range in.Head.Nodes {
			if o := &in.Head.Nodes[i]; o.Used() {
				nodes[o.Obj.Name] = &o.Obj.State
			}
		}
		for i := range head.Nodes {
			if out[i] = nodes[head.Nodes[i].Name]; out[i] == nil {
				out[i] = &objects.NodeState{}
			}
		}
		return out, side{name: BeforeNodes, diags: func(diag.List) (diag.List, diag.List) { return nil, nil }}
	}
	rules, opts := in.Base, in.Options
	if rules == nil {
		rules = in.Head
	}
	if in.BaseOptions != nil {
		opts = *in.BaseOptions
	}
	set := BaseSet(in.Head, rules)
	if base == nil {
		base = renderStates(set, opts)
	}
	byName := make(map[string]*objects.NodeState, len(base.Nodes))
	for i := range base.Nodes {
		byName[base.Nodes[i].Name] = &base.Nodes[i].State
	}
	for i := range head.Nodes {
		if out[i] = byName[head.Nodes[i].Name]; out[i] == nil {
			out[i] = &objects.NodeState{}
		}
	}
	return out, side{name: BeforeBase, groups: base.Groups, fleet: base, set: set, diags: func(h diag.List) (diag.List, diag.List) {
		return oneSided(in.BaseProblems, baseDiagnostics(set, base), h)
	}}
}

// BaseSet is the set the base side renders: the head's snapshot
// (NodeFeatures, Nodes, Namespaces) with the base's NodeFeatureRules and
// NodeFeatureGroups. Both sides thus render the same node names in the
// same order.
func BaseSet(head, base *objects.Set) *objects.Set {
	return &objects.Set{Features: head.Features, Nodes: head.Nodes, Namespaces: head.Namespaces,
		Rules: base.Rules, Groups: base.Groups, NoOpenShiftAlias: head.NoOpenShiftAlias,
		StrictFieldValidation: head.StrictFieldValidation}
}

// baseDiagnostics are the base render's problems, placed in their files.
func baseDiagnostics(set *objects.Set, base *master.Fleet) diag.List {
	ds := append(append(diag.List(nil), base.Diagnostics...), base.NodeDiagnostics...)
	set.Place(ds)
	return ds
}

// oneSided splits the problems of the two sides: the before side's
// (read, then rendered) that the head side does not have, and the head
// side's that the before side does not have.
func oneSided(read, rendered, head diag.List) (baseOnly, headOnly diag.List) {
	before := append(append(diag.List(nil), read...), rendered...)
	inBase, inHead := problemSet(before), problemSet(head)
	for i := range before {
		if !inHead[sameProblem(&before[i])] {
			baseOnly = append(baseOnly, before[i])
		}
	}
	for i := range head {
		if !inBase[sameProblem(&head[i])] {
			headOnly = append(headOnly, head[i])
		}
	}
	return baseOnly, headOnly
}

func problemSet(l diag.List) map[string]bool {
	seen := make(map[string]bool, len(l))
	for i := range l {
		seen[sameProblem(&l[i])] = true
	}
	return seen
}

func sameProblem(d *diag.Diagnostic) string {
	return strings.Join([]string{d.Check, d.Object.Key().String(), d.Field, d.Message}, "\x00")
}

// BaseSidePrefix starts the message of every problem of the base side.
const BaseSidePrefix = "in the base rules (before the change): "

// BeforeSidePrefix starts the message of every problem of the before
// side when it has settings of its own (Input.BaseOptions).
const BeforeSidePrefix = "on the before side: "

// BaseSide marks problems of the base rules as such: their messages say
// so, errors become warnings (the change under review did not make them)
// and infos are dropped.
func BaseSide(l diag.List) diag.List { return markBefore(l, BaseSidePrefix) }

// markBefore is BaseSide with the prefix given.
func markBefore(l diag.List, prefix string) diag.List {
	var out diag.List
	for _, d := range l {
		switch d.Severity {
		case diag.Info:
			continue
		case diag.Error:
			d.Severity = diag.Warning
		}
		d.Message = prefix + d.Message
		out = append(out, d)
	}
	return out
}

// SnapshotOnly reports the NodeFeatures and Nodes a base set holds: the
// snapshot comes from the head paths, so they are not read.
func SnapshotOnly(base *objects.Set) diag.List {
	n := 0
	for i := range base.Features {
		if base.Features[i].Used() {
			n++
		}
	}
	for i := range base.Nodes {
		if base.Nodes[i].Used() {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return diag.List{{Severity: diag.Info, Check: "plan-base",
		Message: pluralize(n, "NodeFeature or Node object", "NodeFeature or Node objects") + " in the --base paths not read: both sides use the snapshot in the PATHs"}}
}

// CheckNoBefore is NFD316: nodes of a plan without --base that have no
// Node object, so no before side.
const CheckNoBefore = "plan-no-before"

// nodesWithoutBefore notes, for a plan whose before side is the input's
// Node objects, the rendered nodes that have none: their before side is
// empty, so everything NFD gives them shows as added, which is no change
// the rules make. Nothing when every node has its Node.
func nodesWithoutBefore(set *objects.Set, head *master.Fleet) diag.List {
	have := map[string]bool{}
	for i := range set.Nodes {
		if o := &set.Nodes[i]; o.Used() {
			have[o.Obj.Name] = true
		}
	}
	var missing []string
	for i := range head.Nodes {
		if !have[head.Nodes[i].Name] {
			missing = append(missing, head.Nodes[i].Name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	verb, their, them := "has", "its", "it"
	if len(missing) > 1 {
		verb, their, them = "have", "their", "them"
	}
	return diag.List{{Severity: diag.Warning, Check: CheckNoBefore, Message: fmt.Sprintf(
		"%s of the %d rendered %s no Node object in the input (first: %s), and no --base is given: %s before side is empty, so everything NFD gives %s shows as added; "+
			"give the cluster's Nodes (kubectl get nodes -o yaml) with the snapshot, or the rules before the change with --base",
		diag.Plural(len(missing), "node"), len(head.Nodes), verb, missing[0], their, them)}}
}
