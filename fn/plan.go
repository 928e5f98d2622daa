package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/plan"
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
	r.extend(modes.PlanDiagnostics(p, ws))
	set.Place(r.list)
}
