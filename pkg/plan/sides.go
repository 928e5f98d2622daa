package plan

import (
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// side is the before side: its name and its diagnostics.
type side struct {
	name  string
	diags func(head *master.Fleet) diag.List
}

// beforeStates is every head node's state on the before side, in the
// head fleet's order: the Node object as it is (an empty state for a node
// without one), or the node rendered with the base rules.
func beforeStates(in Input, head *master.Fleet) ([]*objects.NodeState, side) {
	out := make([]*objects.NodeState, len(head.Nodes))
	if in.Base == nil {
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
		return out, side{name: BeforeNodes, diags: func(*master.Fleet) diag.List { return nil }}
	}
	set := BaseSet(in.Head, in.Base)
	base := renderStates(set, in.Options)
	byName := make(map[string]*objects.NodeState, len(base.Nodes))
	for i := range base.Nodes {
		byName[base.Nodes[i].Name] = &base.Nodes[i].State
	}
	for i := range head.Nodes {
		if out[i] = byName[head.Nodes[i].Name]; out[i] == nil {
			out[i] = &objects.NodeState{}
		}
	}
	return out, side{name: BeforeBase, diags: func(h *master.Fleet) diag.List { return baseDiagnostics(set, base, h) }}
}

// BaseSet is the set the base side renders: the head's snapshot
// (NodeFeatures, Nodes, Namespaces) with the base's NodeFeatureRules and
// NodeFeatureGroups. Both sides thus render the same node names in the
// same order.
func BaseSet(head, base *objects.Set) *objects.Set {
	return &objects.Set{Features: head.Features, Nodes: head.Nodes, Namespaces: head.Namespaces,
		Rules: base.Rules, Groups: base.Groups, NoOpenShiftAlias: head.NoOpenShiftAlias}
}

// baseDiagnostics are the base render's problems that the head render
// does not have too, marked as the base side's.
func baseDiagnostics(set *objects.Set, base, head *master.Fleet) diag.List {
	seen := map[string]bool{}
	for _, l := range []diag.List{head.Diagnostics, head.NodeDiagnostics} {
		for i := range l {
			seen[sameProblem(&l[i])] = true
		}
	}
	var out diag.List
	for _, l := range []diag.List{base.Diagnostics, base.NodeDiagnostics} {
		for i := range l {
			if !seen[sameProblem(&l[i])] {
				out = append(out, l[i])
			}
		}
	}
	set.Place(out)
	return BaseSide(out)
}

func sameProblem(d *diag.Diagnostic) string {
	return strings.Join([]string{d.Check, d.Object.Key().String(), d.Field, d.Message}, "\x00")
}

// BaseSidePrefix starts the message of every problem of the base side.
const BaseSidePrefix = "in the base rules (before the change): "

// BaseSide marks problems of the base rules as such: their messages say
// so, errors become warnings (the change under review did not make them)
// and infos are dropped.
func BaseSide(l diag.List) diag.List {
	var out diag.List
	for _, d := range l {
		switch d.Severity {
		case diag.Info:
			continue
		case diag.Error:
			d.Severity = diag.Warning
		}
		d.Message = BaseSidePrefix + d.Message
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
