package master

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// foldKey identifies one distinct per-node problem.
type foldKey struct {
	sev     diag.Severity
	check   string
	object  diag.ObjectRef
	field   string
	message string
}

// ruleKey identifies a rule: its object and its path in it.
type ruleKey struct {
	object diag.ObjectRef
	rule   string
}

// folder turns the nodes' problems into NodeDiagnostics, one per distinct
// problem naming the nodes it was found on, a node at a time (add) so that
// no node's result has to be kept. A rule failure that Compile already
// reported (a static error) is not repeated: the nodes it hit are added
// to the compile diagnostic instead.
type folder struct {
	f *Fleet
	// static indexes the fleet's Diagnostics by the rule they are on.
	static map[ruleKey][]int
	// folded lists the nodes of each distinct per-node problem.
	folded map[foldKey][]string
}

// newFolder starts folding into f, whose Diagnostics are complete.
func newFolder(f *Fleet) *folder {
	fo := &folder{f: f, static: map[ruleKey][]int{}, folded: map[foldKey][]string{}}
	for i, d := range f.Diagnostics {
		k := ruleKey{d.Object.Key(), RulePath(d.Field)}
		fo.static[k] = append(fo.static[k], i)
	}
	return fo
}

// add folds one node's rule failures, problems and group failures.
func (fo *folder) add(n *NodeResult) {
	for _, e := range n.RuleErrors {
		fo.failure(n.Name, e, RuleFailure)
	}
	for _, d := range n.Problems {
		fo.problem(n.Name, d)
	}
	for _, e := range n.GroupErrors {
		fo.failure(n.Name, e, GroupFailure)
	}
}

func (fo *folder) problem(node string, d diag.Diagnostic) {
	k := foldKey{d.Severity, d.Check, d.Object, d.Field, d.Message}
	fo.folded[k] = append(fo.folded[k], node)
}

func (fo *folder) failure(node string, e *engine.EvalError, describe func(*engine.EvalError) diag.Diagnostic) {
	if idx := fo.f.staticFor(fo.static, e); len(idx) > 0 && e.IsStatic() {
		for _, i := range idx {
			d := &fo.f.Diagnostics[i]
			d.Nodes = append(d.Nodes, node)
			d.Severity = diag.Error
		}
		return
	}
	fo.problem(node, describe(e))
}

// finish names the nodes in the static diagnostics and sets the fleet's
// NodeDiagnostics; node lists are sorted whatever order the nodes came in.
func (fo *folder) finish() {
	fo.f.finishStatic()
	fo.f.NodeDiagnostics = foldedList(fo.folded)
}

// staticFor picks the compile diagnostics of the failing rule that are
// about the failing part (the field of one is a prefix of the other's),
// or all of the rule's when none is.
func (f *Fleet) staticFor(static map[ruleKey][]int, e *engine.EvalError) []int {
	all := static[ruleKey{e.Object.Key(), e.RuleField}]
	var out []int
	for _, i := range all {
		d := f.Diagnostics[i].Field
		if strings.HasPrefix(d, e.Field) || strings.HasPrefix(e.Field, d) {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// finishStatic names the nodes a static failure hit in its message.
func (f *Fleet) finishStatic() {
	for i := range f.Diagnostics {
		d := &f.Diagnostics[i]
		if len(d.Nodes) > 0 {
			sort.Strings(d.Nodes)
			d.Message += fmt.Sprintf(" (hit on %s)", diag.DescribeNodes(d.Nodes))
		}
	}
}

// foldedList lists the folded problems, one per object, field and check:
// the same problem on many nodes names them, and problems whose message
// differs from node to node at one field of a shared object (a label
// value a template writes from each node's features) are one finding
// too, naming every node and quoting the first node's message
// (mergeVariants).
func foldedList(folded map[foldKey][]string) diag.List {
	keys := make([]foldKey, 0, len(folded))
	for k := range folded {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.object.String() != b.object.String() {
			return a.object.String() < b.object.String()
		}
		if a.field != b.field {
			return a.field < b.field
		}
		if a.message != b.message {
			return a.message < b.message
		}
		return a.sev < b.sev
	})
	out := make(diag.List, 0, len(keys))
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && sameSite(keys[i], keys[j]) {
			j++
		}
		out = append(out, mergeVariants(keys[i:j], folded))
		i = j
	}
	return out
}

// sameSite reports whether two folded problems are one check at one
// field of one object shared by the nodes (a rule or group, not a node's
// own NodeFeature or Node).
func sameSite(a, b foldKey) bool {
	return a.sev == b.sev && a.check == b.check && a.object == b.object && a.field == b.field &&
		a.object.Kind != "Node" && a.object.Kind != "NodeFeature"
}

// mergeVariants is the one diagnostic of the problems keys (one site):
// every node they were found on, sorted, and the message of the first
// node, saying so when the others' differ.
func mergeVariants(keys []foldKey, folded map[foldKey][]string) diag.Diagnostic {
	k := keys[0]
	nodes := append([]string(nil), folded[k]...)
	first, msg := firstNode(folded[k]), k.message
	for _, other := range keys[1:] {
		nodes = append(nodes, folded[other]...)
		if n := firstNode(folded[other]); n < first {
			first, msg = n, other.message
		}
	}
	sort.Strings(nodes)
	nodes = slices.Compact(nodes) // a node with two of the variants
	text := fmt.Sprintf("%s: %s", diag.DescribeNodes(nodes), msg)
	if len(keys) > 1 {
		text = fmt.Sprintf("%s: on node %s, %s (the other nodes differ in detail)", diag.DescribeNodes(nodes), first, msg)
	}
	return diag.Diagnostic{Severity: k.sev, Check: k.check, Object: k.object, Field: k.field, Nodes: nodes, Message: text}
}

// firstNode is the smallest of a non-empty list of node names.
func firstNode(nodes []string) string {
	first := nodes[0]
	for _, n := range nodes[1:] {
		if n < first {
			first = n
		}
	}
	return first
}

// RulePath cuts a field path to the rule it is in: spec.rules[3] (a
// group's spec.featureGroupRules[3]); another path is returned whole.
func RulePath(field string) string {
	for _, prefix := range []string{"spec.rules[", "spec.featureGroupRules["} {
		if strings.HasPrefix(field, prefix) {
			if i := strings.Index(field[len(prefix):], "]"); i >= 0 {
				return field[:len(prefix)+i+1]
			}
		}
	}
	return field
}
