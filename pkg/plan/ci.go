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
// converter writes it; for each workload that loses nodes, an annotation
// at each rule whose change of output causes it (workloadAnnotations);
// and one ::notice with the headline.
func WriteGitHub(w io.Writer, p *Plan) error {
	var b strings.Builder
	for i := range p.Diagnostics {
		if d := &p.Diagnostics[i]; d.Severity == diag.Error || d.Severity == diag.Warning {
			b.WriteString(d.Annotation().String() + "\n")
		}
	}
	for i := range p.Workloads {
		b.WriteString(workloadAnnotations(&p.Workloads[i]))
	}
	b.WriteString(cireport.Annotation{Level: "notice", Title: "nfd-fn plan", Message: Headline(p)}.String() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// workloadAnnotations are the annotations of a workload that loses
// nodes: one at each rule that causes it (an error when no node is left,
// else a warning), or, with no cause known, a warning at the workload
// (whose NFD043 error, when no node is left, the diagnostics hold).
func workloadAnnotations(wc *WorkloadChange) string {
	level := "warning"
	if wc.LeftWithout() {
		level = "error"
	}
	var b strings.Builder
	for _, c := range wc.Causes {
		b.WriteString(cireport.Annotation{Level: level, File: c.Rule.Pos.File, Line: c.Rule.Pos.Line,
			Title: "nfd-fn plan: " + wc.String(), Message: causeText(wc, &c)}.String() + "\n")
	}
	if len(wc.Causes) == 0 && len(wc.LostNodes) > 0 && !wc.LeftWithout() {
		b.WriteString(cireport.Annotation{Level: level, File: wc.Pos.File, Line: wc.Pos.Line,
			Title: "nfd-fn plan: " + wc.String(), Message: wc.String() + ": " + Eligibility(wc)}.String() + "\n")
	}
	return b.String()
}

// causeText says what a cause does to the workload: "CronJob
// ml/legacy-benchmark: 2 -> 0 eligible nodes: NodeFeatureRule gpu
// spec.rules[0]: label nvidia.com/gpu.present=true removed on 2 nodes
// (gpu-1, gpu-2)".
func causeText(wc *WorkloadChange, c *Cause) string {
	rule := strings.TrimSuffix(c.Rule.Object.String()+" "+c.Rule.Field, " ")
	text := wc.String() + ": " + Eligibility(wc) + ": " + rule + ": " + c.Change + " on " + diag.DescribeNodes(c.Nodes)
	if c.Examined < len(wc.LostNodes) {
		text += fmt.Sprintf(" (of the first %d lost nodes, the ones examined)", c.Examined)
	}
	return text
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
		text := d.Text()
		for _, cause := range wc.Causes {
			text += "\ncaused by " + cause.Rule.Pos.Where(cause.Rule.Object) + ": " + causeText(wc, &cause)
		}
		c.Failure = &cireport.JUnitProblem{Message: d.Message, Type: "error", Text: text}
	}
	return cireport.JUnitSuite{Name: name, File: wc.Pos.File, Cases: []cireport.JUnitCase{c}}
}
