package ruletest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
)

// Got is what a render of a suite's inputs gave.
type Got struct {
	// Nodes are what NFD gives each node (the labels-json view), by name.
	Nodes []labelview.Node
	// Groups maps each NodeFeatureGroup (namespace/name) to its members.
	Groups map[string][]string
	// Findings are what validate reports on the inputs.
	Findings diag.List
	// Explain, when set, is the explain tree of the rule that should
	// have set label on node ("" when no rule writes it).
	Explain func(node, label string) string
}

// node is the view of the node called name.
func (g *Got) node(name string) (labelview.Node, bool) {
	i, ok := slices.BinarySearchFunc(g.Nodes, name, func(n labelview.Node, name string) int { return strings.Compare(n.Name, name) })
	if !ok {
		return labelview.Node{}, false
	}
	return g.Nodes[i], true
}

// Case is one expectation's outcome.
type Case struct {
	// File and Line are where the expectation is written, Field its
	// field path in the RuleTest (spec.expect.nodes[0].labels.x).
	File  string
	Line  int
	Field string
	// Name says what was checked: "node gpu-01 label nvidia.com/gpu.present".
	Name string
	// Failure is empty when the expectation holds, else what went wrong:
	// the key, the expected and the got value.
	Failure string
	// Detail, for a failure, is what helps fix it: the explain tree of
	// the rule that should have set an absent label, a snapshot's diff.
	Detail string
}

// Failed reports whether the expectation does not hold.
func (c *Case) Failed() bool { return c.Failure != "" }

// place is where an expectation is written: its line and field path.
type place struct {
	line  int
	field string
}

// Check checks every expectation of s against what the render gave.
func Check(s *Suite, g *Got) []Case {
	var out []Case
	add := func(at place, name, failure, detail string) {
		out = append(out, Case{File: s.File, Line: at.line, Field: at.field, Name: name, Failure: failure, Detail: detail})
	}
	for _, ne := range s.Nodes {
		n, ok := g.node(ne.Node)
		if !ok {
			add(place{ne.Line, ne.Field}, "node "+ne.Node, fmt.Sprintf("node %s: not among the rendered nodes (%s)", ne.Node, nodeNames(g.Nodes)), "")
			continue
		}
		checkNode(&ne, &n, g, add)
	}
	for _, ge := range s.Groups {
		name := "group " + ge.Group
		got, ok := g.Groups[ge.Group]
		switch {
		case !ok:
			add(place{ge.Line, ge.Field}, name, fmt.Sprintf("group %s: no such NodeFeatureGroup in the inputs (%s)", ge.Group, groupNames(g.Groups)), "")
		case !slices.Equal(sortedCopy(ge.Members), sortedCopy(got)):
			add(place{ge.Line, ge.Field}, name, fmt.Sprintf("group %s: members: expected %s, got %s", ge.Group, list(ge.Members), list(got)), "")
		default:
			add(place{ge.Line, ge.Field}, name, "", "")
		}
	}
	out = append(out, checkFindings(s, g.Findings)...)
	// In the order they are written, as a reader goes through the file.
	slices.SortStableFunc(out, func(a, b Case) int { return a.Line - b.Line })
	return out
}

// checkNode checks one node's expectations.
func checkNode(ne *NodeExpect, n *labelview.Node, g *Got, add func(at place, name, failure, detail string)) {
	prefix := "node " + ne.Node + " "
	exact := func(kind string, es []Entry, got map[string]string) {
		for _, e := range es {
			name := prefix + kind + " " + e.Key
			v, ok := got[e.Key]
			switch {
			case !ok:
				detail := ""
				if kind == "label" && g.Explain != nil {
					detail = g.Explain(ne.Node, e.Key)
				}
				add(place{e.Line, e.Field}, name, fmt.Sprintf("node %s: %s %s: expected %s, got absent%s", ne.Node, kind, e.Key, strconv.Quote(e.Value), didYouMean(e.Key, got)), detail)
			case v != e.Value:
				add(place{e.Line, e.Field}, name, fmt.Sprintf("node %s: %s %s: expected %s, got %s", ne.Node, kind, e.Key, strconv.Quote(e.Value), strconv.Quote(v)), "")
			default:
				add(place{e.Line, e.Field}, name, "", "")
			}
		}
	}
	exact("label", ne.Labels, n.Labels)
	for _, e := range ne.AbsentLabels {
		name := prefix + "absent label " + e.Key
		if v, ok := n.Labels[e.Key]; ok {
			add(place{e.Line, e.Field}, name, fmt.Sprintf("node %s: label %s: expected absent, got %s", ne.Node, e.Key, strconv.Quote(v)), "")
		} else if full := prefixedAs(e.Key, n.Labels); full != "" {
			// An unprefixed name is never written while nfd-master prefixes
			// it: the expectation would hold whatever the rules do.
			add(place{e.Line, e.Field}, name, fmt.Sprintf("node %s: label %s: expected absent, got %s as %s: nfd-master writes a name without a prefix under one; write the full name",
				ne.Node, e.Key, strconv.Quote(n.Labels[full]), full), "")
		} else {
			add(place{e.Line, e.Field}, name, "", "")
		}
	}
	exact("annotation", ne.Annotations, n.Annotations)
	exact("extended resource", ne.ExtendedResources, n.ExtendedResources)
	for _, t := range ne.Taints {
		want := labelview.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect}
		name := prefix + "taint " + want.String()
		if slices.Contains(n.Taints, want) {
			add(place{t.Line, t.Field}, name, "", "")
			continue
		}
		add(place{t.Line, t.Field}, name, fmt.Sprintf("node %s: taint %s: expected %s, got %s", ne.Node, t.Key, want, taintList(n.Taints, t.Key)), "")
	}
}

// prefixedAs is the key of got that is name with a prefix (nfd-master
// writes a rule's unprefixed label, annotation or extended resource under
// feature.node.kubernetes.io/ unless DisableAutoPrefix is on), or "" when
// name has a prefix or got holds no such key. Of several, the first in
// sorted order.
func prefixedAs(name string, got map[string]string) string {
	if strings.Contains(name, "/") {
		return ""
	}
	var found []string
	for k := range got {
		if _, n, ok := strings.Cut(k, "/"); ok && n == name {
			found = append(found, k)
		}
	}
	if len(found) == 0 {
		return ""
	}
	slices.Sort(found)
	return found[0]
}

// didYouMean is the hint for an absent unprefixed name that the node has
// under a prefix, or "".
func didYouMean(name string, got map[string]string) string {
	if full := prefixedAs(name, got); full != "" {
		return fmt.Sprintf(" (did you mean %s? nfd-master writes a name without a prefix under one)", full)
	}
	return ""
}

// taintList is the node's taints with key, or "absent".
func taintList(ts []labelview.Taint, key string) string {
	var out []string
	for _, t := range ts {
		if t.Key == key {
			out = append(out, t.String())
		}
	}
	if len(out) == 0 {
		return "absent"
	}
	return strings.Join(out, ", ")
}

func nodeNames(nodes []labelview.Node) string {
	if len(nodes) == 0 {
		return "the inputs render no node"
	}
	var names []string
	for i, n := range nodes {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(nodes)-5))
			break
		}
		names = append(names, n.Name)
	}
	return "rendered: " + strings.Join(names, ", ")
}

func groupNames(groups map[string][]string) string {
	if len(groups) == 0 {
		return "the inputs hold none"
	}
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	slices.Sort(names)
	return "groups: " + strings.Join(names, ", ")
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

// list is a list of names as YAML writes it inline: [a, b].
func list(s []string) string {
	return "[" + strings.Join(sortedCopy(s), ", ") + "]"
}
