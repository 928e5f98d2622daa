package lint

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// maxListedNodes caps the node names spelt out in one message.
const maxListedNodes = 10

// FleetCheck gathers what the checks that need the rendered fleet (rules
// that match no node, labels two rules set to different values on the
// same node, taints on every node) need a node at a time, so that a
// streamed render (master.Stream) keeps no node: how many nodes each rule
// matched, and on which nodes two rules set one label to different values.
type FleetCheck struct {
	set       *objects.Set
	opts      master.Options
	nodes     []string
	matched   map[ruleKey]int
	conflicts map[conflictKey][]string
	// failed counts the nodes where each rule failed.
	failed map[ruleKey]int
}

// NewFleetCheck starts Fleet's checks of set over the fleet of the named
// nodes (sorted); the names are not copied.
func NewFleetCheck(set *objects.Set, opts master.Options, nodes []string) *FleetCheck {
	return &FleetCheck{set: set, opts: opts, nodes: nodes,
		matched: map[ruleKey]int{}, conflicts: map[conflictKey][]string{},
		failed: map[ruleKey]int{}}
}

// Add takes one rendered node into account: a count per rule it matched,
// and its name only where it has a label conflict.
func (fc *FleetCheck) Add(n *master.NodeResult) {
	for _, rr := range n.Rules {
		fc.matched[ruleKey{rr.Source.Object, rr.Source.Field}]++
	}
	for _, e := range n.RuleErrors {
		fc.failed[ruleKey{e.Object, e.RuleField}]++
	}
	for k := range labelConflicts(n.Rules) {
		fc.conflicts[k] = append(fc.conflicts[k], n.Name)
	}
}

// Findings are the checks' findings once every node has been added. Node
// lists are sorted, whatever order the nodes were added in.
func (fc *FleetCheck) Findings() diag.List {
	nodes := len(fc.nodes)
	if nodes == 0 {
		return nil
	}
	for _, on := range fc.conflicts {
		sort.Strings(on)
	}
	c := &checker{set: fc.set, opts: fc.opts}
	for _, r := range c.allRules() {
		if r.ref.Kind != api.KindNodeFeatureRule || r.rejected {
			continue
		}
		key := ruleKey{r.ref, r.field}
		on := fc.matched[key]
		switch {
		case on == 0 && fc.failed[key] > 0:
			// rule-failed reports the nodes where it failed, a template's
			// failure as "matched, then its template failed"
		case on == 0:
			c.add(r.doc, r.ref, diag.Warning, "matches-no-node", r.field, false,
				fmt.Sprintf("rule %q matches none of the %d nodes in the input", r.rule.Name, nodes))
		case len(r.rule.Taints) > 0 && on == nodes && nodes > 1:
			f := c.add(r.doc, r.ref, diag.Warning, "taints-every-node", r.field+".taints", false,
				fmt.Sprintf("rule %q taints every node in the input (all %d)%s", r.rule.Name, nodes, taintNote(fc.opts)))
			f.Nodes = append([]string(nil), fc.nodes...)
		}
	}
	c.reportConflicts(fc.conflicts)
	return c.findings
}

func taintNote(opts master.Options) string {
	if !opts.EnableTaints {
		return "; enableTaints is off, so nothing is tainted yet"
	}
	return ""
}

type ruleKey struct {
	object diag.ObjectRef
	field  string
}

// conflictKey is a label that a later rule sets to a different value than
// an earlier one.
type conflictKey struct {
	label         string
	first, second ruleKey
	firstName     string
	secondName    string
}

// labelConflicts finds labels written by two rules with different values
// on one node's results, which come in nfd-master's order.
func labelConflicts(results []engine.RuleResult) map[conflictKey]bool {
	type setBy struct {
		value string
		src   engine.Source
	}
	first := map[string]setBy{}
	out := map[conflictKey]bool{}
	for _, rr := range results {
		for k, v := range rr.Labels {
			prev, ok := first[k]
			if !ok {
				first[k] = setBy{v, rr.Source}
				continue
			}
			if prev.value != v {
				out[conflictKey{k, ruleKey{prev.src.Object, prev.src.Field}, ruleKey{rr.Source.Object, rr.Source.Field}, prev.src.RuleName, rr.Source.RuleName}] = true
			}
		}
	}
	return out
}

func (c *checker) reportConflicts(conflicts map[conflictKey][]string) {
	keys := make([]conflictKey, 0, len(conflicts))
	for k := range conflicts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.second != b.second {
			return a.second.object.String()+a.second.field < b.second.object.String()+b.second.field
		}
		return a.label < b.label
	})
	docs := c.ruleDocs()
	for _, k := range keys {
		nodes := conflicts[k]
		f := c.add(docs[k.second.object], k.second.object, diag.Warning, "label-conflict",
			k.second.field+".labels["+strconv.Quote(k.label)+"]", true,
			fmt.Sprintf("label %q is also set by rule %q of %s to a different value on %s; this rule runs later and silently wins",
				k.label, k.firstName, k.first.object, nodeList(nodes)))
		f.Nodes = nodes
	}
}

func (c *checker) ruleDocs() map[diag.ObjectRef]objects.Origin {
	docs := map[diag.ObjectRef]objects.Origin{}
	for _, o := range c.set.Rules {
		docs[objects.RuleRef(o.Obj)] = o.Origin
	}
	return docs
}

// nodeList spells out up to maxListedNodes node names.
func nodeList(nodes []string) string {
	if len(nodes) == 1 {
		return "node " + nodes[0]
	}
	if len(nodes) <= maxListedNodes {
		return "nodes " + strings.Join(nodes, ", ")
	}
	return fmt.Sprintf("%d nodes (%s, ...)", len(nodes), strings.Join(nodes[:maxListedNodes], ", "))
}
