package plan

import (
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Legend says what eligibility counts and what it leaves out; every
// rendering carries it.
const Legend = "Eligible nodes are those a workload's pod template does not rule out: nodeSelector, " +
	"required node affinity (matchExpressions and matchFields), tolerations against NoSchedule and NoExecute taints, " +
	"and extended resources its containers request against node capacity. Preferred affinity, pod affinity and spread, " +
	"CPU and memory requests and what already runs on a node are not considered."

// TextOptions adjust WriteText.
type TextOptions struct {
	// Color marks added, removed and changed lines and errors with ANSI
	// colours (for a terminal).
	Color bool
}

// textWidth caps the column the node counts are aligned to, and valueWidth
// the length of one key or value in text.
const (
	textWidth  = 72
	valueWidth = 80
)

// WriteText writes the plan for a terminal: a summary line, one line per
// distinct change with the nodes it hits, the workloads whose eligible
// nodes change (those left with none as errors), and the legend.
func WriteText(w io.Writer, p *Plan, opts TextOptions) error {
	t := &textWriter{w: w, color: opts.Color}
	t.line(t.paint(bold, "nfd-fn plan: ") + Headline(p))
	t.changes(p.Changes())
	t.workloads(p.Workloads)
	t.rules(p.Rules)
	if p.Summary.Workloads > 0 || len(p.Workloads) > 0 {
		t.line("")
		t.line(Legend)
	}
	return t.err
}

// Headline is the plan in one sentence, after what differs between the
// sides besides the rules (Summary.Sides), when anything does.
func Headline(p *Plan) string {
	if sides := p.Summary.Sides; len(sides) > 0 {
		return strings.Join(sides, "; ") + ": " + headline(p)
	}
	return headline(p)
}

func headline(p *Plan) string {
	s := &p.Summary
	switch {
	case s.Unplannable != "":
		return fmt.Sprintf("could not plan: %s.", s.Unplannable) + withProblems(s, " ", ".")
	case !p.HasChanges():
		return fmt.Sprintf("no changes: %s.", nothingChanges(s)) + withProblems(s, " ", ".")
	}
	out := fmt.Sprintf("%d of %s change (%s)", s.NodesChanged, pluralize(s.Nodes, "node", "nodes"), pluralize(s.Changes, "distinct change", "distinct changes"))
	if s.Workloads > 0 {
		out += fmt.Sprintf("; %d of %s change eligible nodes", s.WorkloadsChanged, pluralize(s.Workloads, "workload", "workloads"))
		if s.WorkloadsWithoutNodes > 0 {
			out += fmt.Sprintf(", %d left with none", s.WorkloadsWithoutNodes)
		}
	}
	return out + "." + withProblems(s, " ", ".")
}

// withProblems is "1 error, 2 warnings" between before and after, or ""
// when there are neither.
func withProblems(s *Summary, before, after string) string {
	if s.Errors == 0 && s.Warnings == 0 {
		return ""
	}
	return before + pluralize(s.Errors, "error", "errors") + ", " + pluralize(s.Warnings, "warning", "warnings") + after
}

func nothingChanges(s *Summary) string {
	if len(s.Sides) > 0 {
		return "both sides give every node the same labels, annotations, extended resources and taints"
	}
	if s.Before == BeforeBase {
		return "the base and the head rules give every node the same labels, annotations, extended resources and taints"
	}
	return "the rules give every node what its Node object already carries"
}

type textWriter struct {
	w     io.Writer
	color bool
	err   error
}

// ANSI colours.
const (
	red    = "31"
	green  = "32"
	yellow = "33"
	bold   = "1"
)

func (t *textWriter) paint(code, s string) string {
	if !t.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (t *textWriter) line(s string) {
	if t.err == nil {
		_, t.err = fmt.Fprintln(t.w, s)
	}
}

var opColors = [...]string{red, yellow, green}

func (t *textWriter) changes(cs []Change) {
	clip := func(s string) string { return Clip(s, valueWidth) }
	width := 0
	for i := range cs {
		c := &cs[i]
		if i == 0 || cs[i-1].Field != c.Field {
			t.line("")
			t.line(fieldTitle(c.Field) + ":")
			width = sectionWidth(cs[i:], clip)
		}
		d := c.Describe(clip)
		pad := strings.Repeat(" ", max(0, width-len(d)))
		t.line("  " + t.paint(opColors[c.Op], c.Op.Symbol()+" "+d) + pad + "  on " + diag.DescribeNodes(c.Nodes))
	}
}

// sectionWidth is the column the node counts of a field's changes (the
// first of cs and those after it in the same field) are aligned to.
func sectionWidth(cs []Change, clip func(string) string) int {
	width := 0
	for i := range cs {
		if cs[i].Field != cs[0].Field {
			break
		}
		if n := len(cs[i].Describe(clip)); n <= textWidth {
			width = max(width, n)
		}
	}
	return width
}

// fieldTitle is a field's heading: "Labels".
func fieldTitle(f Field) string {
	return [...]string{"Labels", "Taints", "Extended resources", "Annotations"}[f]
}

func (t *textWriter) workloads(ws []WorkloadChange) {
	if len(ws) == 0 {
		return
	}
	t.line("")
	t.line("Workloads:")
	width := 0
	for i := range ws {
		width = max(width, len(ws[i].String()))
	}
	width = min(width, textWidth)
	blank := ""
	for i := range ws {
		if ws[i].LeftWithout() {
			blank = "       "
		}
	}
	for i := range ws {
		wc := &ws[i]
		name := wc.String() + strings.Repeat(" ", max(0, width-len(wc.String())))
		mark := blank
		if wc.LeftWithout() {
			mark = t.paint(red, "error: ")
		}
		t.line("  " + mark + name + "  " + Eligibility(wc))
	}
}

// Eligibility is a workload's change in words: "4 -> 0 eligible nodes,
// lost 4 nodes (a, b, c, d)".
func Eligibility(wc *WorkloadChange) string {
	s := fmt.Sprintf("%d -> %d eligible nodes", wc.EligibleBefore, wc.EligibleAfter)
	if len(wc.LostNodes) > 0 {
		s += ", lost " + diag.DescribeNodes(wc.LostNodes)
	}
	if len(wc.GainedNodes) > 0 {
		s += ", gained " + diag.DescribeNodes(wc.GainedNodes)
	}
	return s
}

// rules writes the rules whose verdict differs between the sides, each
// side's problems under it.
func (t *textWriter) rules(vs []RuleVerdict) {
	if len(vs) == 0 {
		return
	}
	t.line("")
	t.line("Rules whose verdict changes:")
	for i := range vs {
		t.line("  " + vs[i].String())
		for _, side := range []struct {
			name string
			msgs []string
		}{{"before", vs[i].Before}, {"after", vs[i].After}} {
			if len(side.msgs) == 0 {
				t.line("    " + side.name + ": no problem")
			}
			for _, m := range side.msgs {
				t.line("    " + side.name + ": " + m)
			}
		}
	}
}
