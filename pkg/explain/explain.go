// Package explain turns rule traces into text people can read: for one
// node, whether each rule matched and why, down to the values each
// expression saw, and where each of the node's labels came from.
package explain

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// esc escapes what comes from the input (names, values, messages) so that
// the text cannot rewrite the reader's terminal; the layout is nfd-fn's own.
var esc = diag.Escape

// maxSeen caps the values listed for one expression (instances can be many).
const maxSeen = 8

// Selected reports whether a trace is for the rule named by filter: its
// rule name, or Object/rule-name; "" selects every rule.
func Selected(tr *engine.RuleTrace, filter string) bool {
	if filter == "" {
		return true
	}
	return tr.Source.RuleName == filter || tr.Source.Object.Name+"/"+tr.Source.RuleName == filter
}

// Write writes the explanation for one node: the selected rules' traces,
// then the node's labels with their origins.
func Write(w io.Writer, res *master.NodeResult, traces []engine.RuleTrace, filter string) error {
	var b strings.Builder
	matched, shown := 0, 0
	for i := range traces {
		if !Selected(&traces[i], filter) {
			continue
		}
		shown++
		if traces[i].Matched {
			matched++
		}
		b.WriteString(Rule(&traces[i]))
		b.WriteString("\n")
	}
	fmt.Fprintf(w, "node %s: %d of %d rules matched\n\n", esc(res.Name), matched, shown)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	_, err := io.WriteString(w, Labels(res))
	return err
}

// Rule explains one rule's trace as a tree: the rule, its matchers, their
// terms and each term's expressions with what they saw on the node, then
// the rule's outputs.
func Rule(tr *engine.RuleTrace) string {
	var b strings.Builder
	for _, m := range tr.Matchers {
		fmt.Fprintf(&b, "  %s: %s\n", esc(shortField(m.Field, tr.Source.Field)), matchWord(m.Matched))
		for _, t := range m.Terms {
			writeTerm(&b, &t)
		}
	}
	if tr.Matched {
		writeOutput(&b, &tr.Output)
	}
	return fmt.Sprintf("%s %s %s: %s\n", esc(tr.Source.Object.String()), esc(tr.Source.Field), esc(fmt.Sprintf("%q", tr.Source.RuleName)), verdict(tr)) + tree(b.String())
}

// tree draws lines indented by two spaces a level (the first level at two)
// as a tree with box-drawing branches.
func tree(indented string) string {
	lines := strings.Split(strings.TrimSuffix(indented, "\n"), "\n")
	if indented == "" {
		return ""
	}
	depth := make([]int, len(lines))
	for i, l := range lines {
		depth[i] = (len(l)-len(strings.TrimLeft(l, " ")))/2 - 1
		lines[i] = strings.TrimLeft(l, " ")
	}
	// last[i] says line i is the last child of its parent.
	last := make([]bool, len(lines))
	for i := range lines {
		last[i] = true
		for j := i + 1; j < len(lines) && depth[j] >= depth[i]; j++ {
			if depth[j] == depth[i] {
				last[i] = false
				break
			}
		}
	}
	var b strings.Builder
	open := []bool{} // open[k]: the ancestor at depth k has siblings below
	for i, l := range lines {
		d := max(depth[i], 0)
		open = append(open[:min(d, len(open))], make([]bool, max(0, d-len(open)))...)
		for k := 0; k < d; k++ {
			if open[k] {
				b.WriteString("│  ")
			} else {
				b.WriteString("   ")
			}
		}
		if last[i] {
			b.WriteString("└─ ")
		} else {
			b.WriteString("├─ ")
		}
		b.WriteString(l)
		b.WriteString("\n")
		open = append(open[:d], !last[i])
	}
	return b.String()
}

func verdict(tr *engine.RuleTrace) string {
	switch {
	case tr.Err != nil:
		return fmt.Sprintf("FAILED: %s (nfd-master skips the rule on this node)", esc(unwrap(tr.Err).Error()))
	case tr.Matched:
		return "matched"
	}
	return "not matched"
}

func unwrap(err error) error {
	if ee, ok := err.(*engine.EvalError); ok {
		return ee.Err
	}
	return err
}

func matchWord(ok bool) string {
	if ok {
		return "matched"
	}
	return "not matched"
}

// shortField drops the rule's own path from a field path.
func shortField(field, rule string) string {
	return strings.TrimPrefix(strings.TrimPrefix(field, rule), ".")
}

func writeTerm(b *strings.Builder, t *engine.TermTrace) {
	switch {
	case t.Skipped:
		fmt.Fprintf(b, "    %s: not evaluated (an earlier term failed)\n", esc(t.Feature))
		return
	case !t.Present:
		fmt.Fprintf(b, "    %s: not matched (the node has no %s feature)\n", esc(t.Feature), esc(t.Feature))
		return
	case t.Err != nil:
		fmt.Fprintf(b, "    %s: error: %s\n", esc(t.Feature), esc(t.Err.Error()))
	default:
		fmt.Fprintf(b, "    %s: %s\n", esc(t.Feature), matchWord(t.Matched))
	}
	if len(t.Exprs) == 0 {
		fmt.Fprintf(b, "      (no expressions: matches when the feature has elements)\n")
	}
	for _, e := range t.Exprs {
		writeExpr(b, &e)
	}
}

func writeExpr(b *strings.Builder, e *engine.ExprTrace) {
	name := e.Element
	if name == "" {
		name = "matchName"
	}
	expr := fmt.Sprintf("%s %s", name, e.Op)
	if len(e.Values) > 0 {
		expr += " [" + strings.Join(e.Values, ", ") + "]"
	}
	result := fmt.Sprint(e.Matched)
	if e.Err != nil {
		result = fmt.Sprintf("error: %v", e.Err)
	}
	seen := e.Seen
	more := ""
	if len(seen) > maxSeen {
		more = fmt.Sprintf(", ... %d more", len(seen)-maxSeen)
		seen = seen[:maxSeen]
	}
	label := "saw"
	if e.Element == "" {
		label = "names matched"
	}
	if len(seen) == 0 {
		seen = []string{"nothing"}
	}
	if len(e.Near) > 0 {
		more += "; closest: " + strings.Join(e.Near, ", ")
	}
	fmt.Fprintf(b, "      %s: %s (%s %s%s)\n", esc(expr), esc(result), label, esc(strings.Join(seen, ", ")), esc(more))
}

func writeOutput(b *strings.Builder, o *engine.Output) {
	write := func(what string, m map[string]string) {
		if len(m) == 0 {
			return
		}
		keys := slices.Sorted(maps.Keys(m))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + m[k]
		}
		fmt.Fprintf(b, "  %s: %s\n", what, esc(strings.Join(parts, ", ")))
	}
	write("labels", o.Labels)
	write("vars", o.Vars)
	write("annotations", o.Annotations)
	write("extendedResources", o.ExtendedResources)
	for _, t := range o.Taints {
		if t.Value == "" {
			fmt.Fprintf(b, "  taint: %s\n", esc(t.Key+":"+t.Effect))
		} else {
			fmt.Fprintf(b, "  taint: %s\n", esc(t.Key+"="+t.Value+":"+t.Effect))
		}
	}
}

// Labels lists the node's labels, each with the object and field it came
// from; labels that were already on the Node and that NFD does not manage
// say so.
func Labels(res *master.NodeResult) string {
	var b strings.Builder
	b.WriteString("labels:\n")
	keys := slices.Sorted(maps.Keys(res.State.Labels))
	if len(keys) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, k := range keys {
		from := "already on the Node, not managed by NFD"
		if o, ok := res.LabelOrigins[k]; ok {
			from = fmt.Sprintf("from %s %s", o.Object, o.Field)
		}
		fmt.Fprintf(&b, "  %s  (%s)\n", esc(k+"="+res.State.Labels[k]), esc(from))
	}
	return b.String()
}
