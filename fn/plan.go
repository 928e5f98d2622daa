package fn

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
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
	r.list = dropWorkloadNotes(r.list)
	ws, problems := readWorkloads(rl)
	p := plan.Make(plan.Input{Head: set, Workloads: ws, Options: s.Options, Problems: problems})
	r.extend(p.Diagnostics)
	r.extend(planResults(p, ws))
	set.Place(r.list)
}

// readWorkloads reads the list's workload items; an item of a workload
// kind without a readable pod template is a warning.
func readWorkloads(rl *krm.ResourceList) ([]*workload.Workload, diag.List) {
	var out []*workload.Workload
	var problems diag.List
	for _, it := range rl.Items {
		d, ok := it.Decoded.(*decodedItem)
		if !ok {
			continue
		}
		for i, o := range d.objects {
			if o.Class != objects.Other || !workload.IsWorkloadKind(o.Ref.APIVersion, o.Ref.Kind) {
				continue
			}
			pos := diag.Position{File: it.File, Index: it.Index}
			w, problem, ok := workload.Document(itemDocument(it, d, i), pos)
			switch {
			case !ok:
			case problem != nil:
				problem.Pos.Line, problem.Pos.Column = 0, 0
				problems = append(problems, *problem)
			default:
				out = append(out, w)
			}
		}
	}
	return out, problems
}

// itemDocument is the i-th object of an item, parsed again when the
// reader let the item's tree go.
func itemDocument(it *krm.Item, d *decodedItem, i int) *yaml.Node {
	if d.nodes != nil {
		return d.nodes[i]
	}
	tree := it.Tree()
	if tree == nil {
		return nil
	}
	if docs := objects.Documents(tree); i < len(docs) {
		return docs[i]
	}
	return nil
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

// dropWorkloadNotes drops the notes saying that files mode skipped
// workload objects: mode plan reads them.
func dropWorkloadNotes(l diag.List) diag.List {
	out := l[:0]
	for _, d := range l {
		if d.Check != "other-kind" || !workload.IsWorkloadKind(d.Object.APIVersion, d.Object.Kind) {
			out = append(out, d)
		}
	}
	return out
}
