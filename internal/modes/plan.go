package modes

import (
	"fmt"
	"io"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/plan"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// PlanFiles is `nfd-fn plan PATH...`: the snapshot and the rules after
// the change read from f (with the settings f.LoadSettings read), the
// rules before it from base (--base, the snapshot being f's) and the
// workloads from workloads (--workloads), all through the same reader;
// the problems in the files become the plan's, at their lines. A failure
// to read the files is an error naming the flag.
func PlanFiles(f *Files, base, workloads []string) (*plan.Plan, error) {
	s := f.Settings
	in := plan.Input{Head: s.NewSet()}
	head := f.reader(in.Head)
	ds, _, err := head.Read(f.Paths, false)
	if err != nil {
		return nil, err
	}
	in.Problems = append(ds, head.Admit(&s)...)
	in.Options = s.Options
	if len(base) > 0 {
		in.Base = s.NewSet()
		r := f.reader(in.Base)
		ds, _, err := r.Read(base, false)
		if err != nil {
			return nil, fmt.Errorf("--base: %w", err)
		}
		ds = append(ds, r.Admit(&s)...)
		in.Problems = append(append(in.Problems, plan.BaseSide(ds)...), plan.SnapshotOnly(in.Base)...)
	}
	if len(workloads) > 0 {
		// A set of their own owns the workload files: closed with f.
		ws, ds, err := f.reader(&objects.Set{}).Workloads(workloads)
		if err != nil {
			return nil, fmt.Errorf("--workloads: %w", err)
		}
		in.Workloads, in.Problems = ws, append(in.Problems, ds...)
	}
	p := plan.Make(in)
	for _, r := range f.readers {
		r.Locate(p.Diagnostics)
	}
	return p, nil
}

// PlanDiagnostics are a plan as info diagnostics (the KRM mode's
// results): the headline, one per distinct change and one per workload
// whose eligible nodes change, on the workload (ws, the workloads read).
func PlanDiagnostics(p *plan.Plan, ws []*workload.Workload) diag.List {
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

// PlanWriter is the writer of a plan --output format: text (coloured
// with color), markdown (a pull-request comment) or json; ok is false
// for another name.
func PlanWriter(format string, color bool) (write func(io.Writer, *plan.Plan) error, ok bool) {
	switch format {
	case "text":
		return func(w io.Writer, p *plan.Plan) error { return plan.WriteText(w, p, plan.TextOptions{Color: color}) }, true
	case "markdown":
		return plan.WriteMarkdown, true
	case "json":
		return plan.WriteJSON, true
	}
	return nil, false
}
