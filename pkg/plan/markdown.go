package plan

import (
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// MaxMarkdown bounds the Markdown rendering, below GitHub's limit of
// 65,536 characters for a comment; what does not fit is counted, not cut
// mid-row.
const MaxMarkdown = 60000

// Row and example caps keep the Markdown readable on a large fleet.
const (
	maxChangeRows   = 60
	maxWorkloadRows = 40
	maxDetailRows   = 40
	maxExamples     = 3
	mdValueWidth    = 60
)

// WriteMarkdown writes the plan for a pull-request comment: a summary
// line, a table of the distinct changes with node counts and a few
// example nodes, a table of affected workloads, and the problems, each
// node's changes and the legend folded in <details>. It stays under
// MaxMarkdown characters whatever the fleet's size.
func WriteMarkdown(w io.Writer, p *Plan) error {
	m := &mdWriter{}
	m.line("### nfd-fn plan")
	m.line("")
	m.line(mdHeadline(p))
	if len(p.Summary.Sides) > 0 {
		m.line("")
		for _, side := range p.Summary.Sides {
			m.line("- " + escape(side))
		}
	}
	m.changeTable(p.Changes())
	m.workloadTable(p.Workloads)
	m.ruleList(p.Rules)
	m.problems(p.Diagnostics)
	m.nodeDetails(p.Nodes)
	m.legend()
	_, err := io.WriteString(w, m.b.String())
	return err
}

type mdWriter struct{ b strings.Builder }

func (m *mdWriter) line(s string) { m.b.WriteString(s + "\n") }

// fits reports whether a row of n more characters leaves room for what
// closes the document.
func (m *mdWriter) fits(n int) bool { return m.b.Len()+n < MaxMarkdown-2000 }

// rows writes up to limit rows while they fit, then a line counting
// those left out.
func (m *mdWriter) rows(n, limit int, row func(i int) string, more func(left int) string) {
	for i := range n {
		r := row(i)
		if i >= limit || !m.fits(len(r)) {
			m.line(more(n - i))
			return
		}
		m.line(r)
	}
}

func mdHeadline(p *Plan) string {
	s := &p.Summary
	switch {
	case s.Unplannable != "":
		return "**Could not plan.** " + upper(s.Unplannable) + "." + withProblems(s, " ", ".")
	case !p.HasChanges():
		return "**No changes.** " + upper(nothingChanges(s)) + "." + withProblems(s, " ", ".")
	}
	out := fmt.Sprintf("**%d of %s change** (%s)", s.NodesChanged, pluralize(s.Nodes, "node", "nodes"), pluralize(s.Changes, "distinct change", "distinct changes"))
	if s.Workloads > 0 {
		out += fmt.Sprintf(" · **%d of %s change eligible nodes**", s.WorkloadsChanged, pluralize(s.Workloads, "workload", "workloads"))
		if s.WorkloadsWithoutNodes > 0 {
			out += fmt.Sprintf(", :x: %d left with none", s.WorkloadsWithoutNodes)
		}
	}
	return out + withProblems(s, " · ", "")
}

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// table writes a table of n rows (none at all when n is 0): a blank
// line, the heading lines, then the rows as rows writes them.
func (m *mdWriter) table(n int, heading []string, limit int, row func(i int) string, more func(left int) string) {
	if n == 0 {
		return
	}
	m.line("")
	for _, h := range heading {
		m.line(h)
	}
	m.rows(n, limit, row, more)
}

func (m *mdWriter) changeTable(cs []Change) {
	m.table(len(cs), []string{"| | change | nodes | e.g. |", "|---|---|--:|---|"}, maxChangeRows, func(i int) string {
		c := &cs[i]
		return fmt.Sprintf("| %s | %s %s | %d | %s |", c.Op, c.Field, code(c.Describe(mdClip)), len(c.Nodes), examples(c.Nodes))
	}, func(left int) string {
		return fmt.Sprintf("| | … %s more (see `nfd-fn plan -o json`) | | |", pluralize(left, "change", "changes"))
	})
}

func (m *mdWriter) workloadTable(ws []WorkloadChange) {
	m.table(len(ws), []string{"| | workload | eligible before | after | lost | gained |", "|---|---|--:|--:|---|---|"}, maxWorkloadRows, func(i int) string {
		wc := &ws[i]
		mark := ""
		if wc.LeftWithout() {
			mark = ":x:"
		}
		return fmt.Sprintf("| %s | %s %s | %d | %d | %s | %s |", mark, wc.Kind, code(mdClip(strings.TrimPrefix(wc.Namespace+"/"+wc.Name, "/"))),
			wc.EligibleBefore, wc.EligibleAfter, counted(wc.LostNodes), counted(wc.GainedNodes))
	}, func(left int) string {
		return fmt.Sprintf("| | … %s more (see `nfd-fn plan -o json`) | | | | |", pluralize(left, "workload", "workloads"))
	})
}

func (m *mdWriter) problems(ds diag.List) {
	if len(ds) == 0 {
		return
	}
	c := ds.Counts()
	m.line("")
	m.line(fmt.Sprintf("<details><summary>Problems: %s, %s, %s</summary>", pluralize(c[diag.Error], "error", "errors"),
		pluralize(c[diag.Warning], "warning", "warnings"), pluralize(c[diag.Info], "note", "notes")))
	m.line("")
	ds = bySeverity(ds)
	m.rows(len(ds), maxDetailRows, func(i int) string {
		return "- " + escape(Clip(ds[i].Text(), 400))
	}, func(left int) string { return fmt.Sprintf("- … %s more", pluralize(left, "problem", "problems")) })
	m.line("")
	m.line("</details>")
}

func (m *mdWriter) nodeDetails(ns []NodeChange) {
	if len(ns) == 0 {
		return
	}
	m.line("")
	m.line(fmt.Sprintf("<details><summary>Changes per node (%s)</summary>", pluralize(len(ns), "node", "nodes")))
	m.line("")
	m.rows(len(ns), maxDetailRows, func(i int) string {
		return fmt.Sprintf("- %s: %s", code(mdClip(ns[i].Name)), nodeSummary(&ns[i]))
	}, func(left int) string {
		return fmt.Sprintf("- … %s more (see `nfd-fn plan -o json`)", pluralize(left, "node", "nodes"))
	})
	m.line("")
	m.line("</details>")
}

func (m *mdWriter) legend() {
	m.line("")
	m.line("<details><summary>Legend</summary>")
	m.line("")
	m.line("Changes are grouped: one row per distinct change, with the number of nodes it hits; a key whose value " +
		fmt.Sprintf("changes in more than %d different ways is one row. ", MaxValues) + Legend)
	m.line("")
	m.line("</details>")
}

// maxPerNode caps the changes listed for one node.
const maxPerNode = 12

// nodeSummary lists one node's changes: "+label `k=v`, -taint `t`".
func nodeSummary(n *NodeChange) string {
	cs := group([]NodeChange{*n})
	parts := make([]string, 0, min(len(cs), maxPerNode)+1)
	for i := range cs {
		if i == maxPerNode {
			parts = append(parts, fmt.Sprintf("… %d more", len(cs)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s%s %s", cs[i].Op.Symbol(), cs[i].Field, code(cs[i].Describe(mdClip))))
	}
	return strings.Join(parts, ", ")
}

func mdClip(s string) string { return Clip(s, mdValueWidth) }

// code is s as inline code in a table cell: backticks replaced, pipes
// escaped (GitHub splits cells at | even inside code).
func code(s string) string {
	return "`" + strings.ReplaceAll(strings.ReplaceAll(s, "`", "'"), "|", `\|`) + "`"
}

// escape makes plain text safe in Markdown and HTML.
func escape(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "|", `\|`, "`", "'", "*", `\*`, "_", `\_`).Replace(s)
}

func examples(nodes []string) string {
	n := min(len(nodes), maxExamples)
	parts := make([]string, 0, n+1)
	for _, name := range nodes[:n] {
		parts = append(parts, code(mdClip(name)))
	}
	if len(nodes) > n {
		parts = append(parts, "…")
	}
	return strings.Join(parts, ", ")
}

// counted is "2: `a`, `b`" or "" for no nodes.
func counted(nodes []string) string {
	if len(nodes) == 0 {
		return ""
	}
	return fmt.Sprintf("%d: %s", len(nodes), examples(nodes))
}

// bySeverity is a copy of ds, errors first, then warnings, then notes.
func bySeverity(ds diag.List) diag.List {
	out := make(diag.List, 0, len(ds))
	for _, sev := range []diag.Severity{diag.Error, diag.Warning, diag.Info} {
		for i := range ds {
			if ds[i].Severity == sev {
				out = append(out, ds[i])
			}
		}
	}
	return out
}

// ruleList lists the rules whose verdict differs between the sides.
func (m *mdWriter) ruleList(vs []RuleVerdict) {
	m.table(len(vs), []string{"| rule whose verdict changes | before | after |", "|---|---|---|"}, maxWorkloadRows, func(i int) string {
		v := &vs[i]
		return fmt.Sprintf("| %s | %s | %s |", code(v.String()), verdictText(v.Before), verdictText(v.After))
	}, func(left int) string { return fmt.Sprintf("| … %s more | | |", pluralize(left, "rule", "rules")) })
}

func verdictText(msgs []string) string {
	if len(msgs) == 0 {
		return "no problem"
	}
	return escape(Clip(strings.Join(msgs, "; "), 300))
}
