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

// Fleet runs the checks that need the rendered fleet: rules that match no
// node, labels two rules set to different values on the same node, and
// taints on every node. With no nodes it finds nothing.
func Fleet(set *objects.Set, fleet *master.Fleet, opts master.Options) diag.List {
	nodes := fleet.Nodes
	if len(nodes) == 0 {
		return nil
	}
	c := &checker{set: set, opts: opts}
	matchedOn := map[ruleKey][]string{}
	conflicts := map[conflictKey][]string{}
	for _, n := range nodes {
		for _, rr := range n.Rules {
			k := ruleKey{rr.Source.Object, rr.Source.Field}
			matchedOn[k] = append(matchedOn[k], n.Name)
		}
		for k := range labelConflicts(n.Rules) {
			conflicts[k] = append(conflicts[k], n.Name)
		}
	}
	for _, r := range c.allRules() {
		if r.ref.Kind != api.KindNodeFeatureRule || r.rejected {
			continue
		}
		on := matchedOn[ruleKey{r.ref, r.field}]
		switch {
		case len(on) == 0:
			c.add(r.doc, r.ref, diag.Warning, "matches-no-node", r.field, false,
				fmt.Sprintf("rule %q matches none of the %d nodes in the input", r.rule.Name, len(nodes)))
		case len(r.rule.Taints) > 0 && len(on) == len(nodes) && len(nodes) > 1:
			f := c.add(r.doc, r.ref, diag.Warning, "taints-every-node", r.field+".taints", false,
				fmt.Sprintf("rule %q taints every node in the input (all %d)%s", r.rule.Name, len(nodes), taintNote(opts)))
			f.Nodes = on
		}
	}
	c.reportConflicts(conflicts)
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
