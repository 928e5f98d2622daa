package fn

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/plan"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// planList is mode plan: what rendering the list's rules would change on
// its Nodes (the before side is the Node objects as they are) and on the
// eligible nodes of the workloads among its items. Items pass through
// untouched; the plan's errors (a rule failing on nodes, a workload left
// with no eligible node) are error results a pipeline can gate on, and
// the plan itself comes as info results: a summary, one per distinct
// change and one per workload whose eligible nodes change.
func planList(rl *krm.ResourceList, s config.Settings, r *report) {
	set := readSet(rl, &s, r)
	r.list = inputs.DropWorkloadNotes(r.list)
	ws, problems := inputs.Workloads(rl)
	p := plan.Make(plan.Input{Head: set, Workloads: ws, Options: s.Options, Problems: problems})
	r.extend(p.Diagnostics)
	r.extend(planResults(p, ws))
	set.Place(r.list)
}

// planResults are the plan as info results.
func planResults(p *plan.Plan, ws []*workload.Workload) diag.List {
	out := diag.List{{Severity: diag.Info, Check: "plan", Message: "plan: " + plan.Headline(p)}}
	for _, c := range p.Changes() {
		out = append(out, diag.Diagnostic{Severity: diag.Info, Check: "plan", Nodes: c.Nodes,
			Message: fmt.Sprintf("plan: %s %s %s on %s", c.Op.Symbol(), c.Field, c.Describe(clip), diag.DescribeNodes(c.Nodes))})
	}
	byKey := map[diag.ObjectRef]*workload.Workload{}
	for _, w := range ws {
		byKey[w.Ref().Key()] = w
	}
	for i := range p.Workloads {
		wc := &p.Workloads[i]
		d := diag.Diagnostic{Severity: diag.Info, Check: "plan", Message: "plan: " + plan.Eligibility(wc)}
		d.Object = diag.ObjectRef{Kind: wc.Kind, Namespace: wc.Namespace, Name: wc.Name}
		if w := byKey[d.Object]; w != nil {
			d.Object, d.Pos = w.Ref(), w.Pos
		}
		out = append(out, d)
	}
	return out
}

func clip(s string) string { return plan.Clip(s, 120) }
