package inputs

import (
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// Workloads reads the workload items of a read list (mode plan); an item
// of a workload kind without a readable pod template is a warning.
func Workloads(rl *krm.ResourceList) ([]*workload.Workload, diag.List) {
	var out []*workload.Workload
	var problems diag.List
	for _, it := range rl.Items {
		d, ok := decoded(it)
		if !ok {
			continue
		}
		for i, o := range d.Objects() {
			if o.Class != objects.Other || !workload.IsWorkloadKind(o.Ref.APIVersion, o.Ref.Kind) {
				continue
			}
			pos := diag.Position{File: it.File, Index: it.Index}
			w, problem, ok := workload.Document(ItemDocument(it, d, i), pos)
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

// DropWorkloadNotes drops the notes saying that workload objects were
// skipped (Skipped): mode plan reads them.
func DropWorkloadNotes(l diag.List) diag.List {
	out := l[:0]
	for _, d := range l {
		if d.Check != "other-kind" || !workload.IsWorkloadKind(d.Object.APIVersion, d.Object.Kind) {
			out = append(out, d)
		}
	}
	return out
}
