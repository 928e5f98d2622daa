package plan

import (
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/cireport"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// noEligibleNode is the check of a workload the change leaves with no
// node (leftWithout): its workload's testsuite carries it in JUnit.
const noEligibleNode = "plan-no-eligible-node"

// WriteGitHub writes the plan as GitHub Actions workflow commands: each
// problem at error or warning (a broken rule at its file and line, a
// workload left with no node at the workload's) as the diagnostic
// converter writes it, a ::warning at each workload that loses eligible
// nodes but keeps some, and one ::notice with the headline.
func WriteGitHub(w io.Writer, p *Plan) error {
	var b strings.Builder
	for i := range p.Diagnostics {
		if d := &p.Diagnostics[i]; d.Severity == diag.Error || d.Severity == diag.Warning {
			b.WriteString(d.Annotation().String() + "\n")
		}
	}
	for i := range p.Workloads {
		wc := &p.Workloads[i]
		if len(wc.LostNodes) == 0 || wc.LeftWithout() {
			continue
		}
		b.WriteString(cireport.Annotation{Level: "warning", File: wc.Pos.File, Line: wc.Pos.Line,
			Title: "nfd-fn plan: " + wc.String(), Message: wc.String() + ": " + Eligibility(wc)}.String() + "\n")
	}
	b.WriteString(cireport.Annotation{Level: "notice", Title: "nfd-fn plan", Message: Headline(p)}.String() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJUnit writes the plan as JUnit XML: a testsuite per node that
// changes, a testcase per change (they pass: a change is what the plan
// is for); a testsuite per workload whose eligible nodes change, its
// testcase failing when none is left; and the other problems as
// validate's JUnit has them (a testsuite per file, a testcase per check,
// failing on errors).
func WriteJUnit(w io.Writer, p *Plan) error {
	var rest diag.List
	left := map[diag.ObjectRef]diag.Diagnostic{}
	for _, d := range p.Diagnostics {
		if d.Check == noEligibleNode {
			left[d.Object.Key()] = d
			continue
		}
		rest = append(rest, d)
	}
	doc := diag.JUnit(rest, "nfd-fn plan")
	for i := range p.Nodes {
		doc.Add(nodeSuite(&p.Nodes[i]))
	}
	for i := range p.Workloads {
		doc.Add(workloadSuite(&p.Workloads[i], left))
	}
	return doc.Write(w)
}

// nodeSuite is one node's changes, a passing testcase each.
func nodeSuite(n *NodeChange) cireport.JUnitSuite {
	name := "node " + n.Name
	s := cireport.JUnitSuite{Name: name}
	for _, c := range group([]NodeChange{*n}) {
		s.Cases = append(s.Cases, cireport.JUnitCase{ClassName: name,
			Name: fmt.Sprintf("%s %s %s", c.Field, c.Op.Symbol(), c.Describe(func(s string) string { return s }))})
	}
	return s
}

// workloadSuite is one workload's change in eligible nodes: a testcase
// that fails when the change leaves it none (the problem's text).
func workloadSuite(wc *WorkloadChange, left map[diag.ObjectRef]diag.Diagnostic) cireport.JUnitSuite {
	name := wc.String()
	c := cireport.JUnitCase{ClassName: name, Name: "eligible nodes: " + Eligibility(wc), File: wc.Pos.File, Line: wc.Pos.Line}
	if d, ok := left[diag.ObjectRef{Kind: wc.Kind, Namespace: wc.Namespace, Name: wc.Name}]; ok {
		c.Failure = &cireport.JUnitProblem{Message: d.Message, Type: "error", Text: d.Text()}
	}
	return cireport.JUnitSuite{Name: name, File: wc.Pos.File, Cases: []cireport.JUnitCase{c}}
}
