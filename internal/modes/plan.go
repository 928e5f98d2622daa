package modes

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/release"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/plan"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// PlanOptions are the paths and settings plan reads besides the head
// side's (Files.LoadSettings).
type PlanOptions struct {
	// Base are the rules before the change (--base); the snapshot is the
	// head paths'. Workloads are the --workloads paths.
	Base, Workloads []string
	// WorkerConfig and BaseWorkerConfig are the nfd-worker
	// configurations of the head and base sides (--worker-config,
	// --base-worker-config): the labels of each node's own NodeFeature are
	// recomputed with them (unset: as the snapshot shows them).
	WorkerConfig, BaseWorkerConfig string
	// BaseConfig, BaseNFDVersion and BaseCRDVersion are the before side's
	// nfd-master settings, NFD release and CRDs (--base-config,
	// --base-nfd-version, --base-crd-version); unset, the head side's.
	BaseConfig, BaseNFDVersion, BaseCRDVersion string
	// Causes asks for the rules behind each workload's lost nodes
	// (plan.Input.Causes): the github and junit outputs name them.
	Causes bool
}

// baseSettings reports whether the before side has settings of its own.
func (o *PlanOptions) baseSettings() bool {
	return o.BaseWorkerConfig != "" || o.BaseConfig != "" || o.BaseNFDVersion != "" || o.BaseCRDVersion != ""
}

// PlanFiles is `nfd-fn plan PATH...`: the snapshot and the rules after
// the change read from f (with the settings f.LoadSettings read), the
// rules before it from o.Base (the snapshot being f's), the workloads
// from o.Workloads, all through the same reader, each side with its
// settings (PlanOptions); the problems in the files become the plan's, at
// their lines. A failure to read the files is an error naming the flag.
func PlanFiles(f *Files, o PlanOptions) (*plan.Plan, error) {
	s := f.Settings
	in := plan.Input{Head: s.NewSet(), Causes: o.Causes}
	head := f.reader(in.Head)
	ds, _, err := head.Read(f.Paths, false)
	if err != nil {
		return nil, err
	}
	in.Problems = append(ds, head.Admit(&s)...)
	in.Options = s.Options
	bs, notes, err := f.beforeSettings(s, o)
	if err != nil {
		return nil, err
	}
	in.Problems = append(in.Problems, plan.BaseSide(notes)...)
	if err := planBase(f, &in, s, bs, o); err != nil {
		return nil, err
	}
	if err := planWorkers(&in, bs, o); err != nil {
		return nil, err
	}
	if bs != nil {
		in.Sides = append(in.Sides, releaseSides(s.Options.NFDRelease(), bs.Options.NFDRelease(), s.CRDs.Name != "" || bs.CRDs.Name != "")...)
		if o.BaseConfig != "" {
			in.Sides = append(in.Sides, fmt.Sprintf("nfd-master settings: %s → %s", o.BaseConfig, orDefaults(f.configPath)))
		}
	}
	if len(o.Workloads) > 0 {
		// A set of their own owns the workload files: closed with f.
		ws, ds, err := f.reader(&objects.Set{}).Workloads(o.Workloads)
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

// beforeSettings are the before side's settings: the head's with the
// --base-config, --base-nfd-version and --base-crd-version given; nil
// when the before side has no settings of its own. The --base-config
// file's warnings come back, naming it.
func (f *Files) beforeSettings(head config.Settings, o PlanOptions) (*config.Settings, diag.List, error) {
	if !o.baseSettings() {
		return nil, nil, nil
	}
	bs := head
	var notes diag.List
	if o.BaseConfig != "" {
		root, err := ReadConfig(o.BaseConfig)
		if err != nil {
			return nil, nil, fmt.Errorf("--base-config: %w", err)
		}
		var problems diag.List
		if bs, problems = config.Load(root); problems.HasErrors() {
			return nil, nil, fmt.Errorf("--base-config: %s: %s", o.BaseConfig, firstError(problems).Describe())
		}
		for _, p := range problems {
			p.Pos.File = o.BaseConfig
			notes = append(notes, p)
		}
		// The release and CRDs the head side settled on, unless the file
		// names its own.
		if bs.CRDs.Name == "" {
			bs.CRDs = head.CRDs
		}
		if !bs.ReleaseGiven {
			bs.SetRelease(head.Options.NFDRelease())
			bs.ReleaseGiven = head.ReleaseGiven
		}
	}
	for _, p := range []struct{ flag, v string }{{"--base-nfd-version", o.BaseNFDVersion}, {"--base-crd-version", o.BaseCRDVersion}} {
		if p.v == "" {
			continue
		}
		use := bs.UseRelease
		if p.flag == "--base-crd-version" {
			use = bs.UseCRDs
		}
		if problems := use(p.v); problems.HasErrors() {
			return nil, nil, fmt.Errorf("%s: %s", p.flag, problems[0].Message)
		}
	}
	return &bs, notes, nil
}

// planBase reads the before side's rules: the --base paths, or the head
// paths again when the before side's CRDs admit objects otherwise than
// the head's; each admitted with the before side's settings (bs, when
// not nil).
func planBase(f *Files, in *plan.Input, head config.Settings, bs *config.Settings, o PlanOptions) error {
	paths, flag := o.Base, "--base"
	admitting := bs
	if admitting == nil {
		admitting = &head
	}
	if len(paths) == 0 {
		if bs == nil || sameAdmission(head, *bs) {
			if bs != nil {
				in.BaseOptions = &bs.Options
			}
			return nil
		}
		paths, flag = f.Paths, "the head paths, read again for the before side's CRDs"
	}
	in.Base = admitting.NewSet()
	r := f.reader(in.Base)
	ds, _, err := r.Read(paths, false)
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	in.BaseProblems = append(ds, r.Admit(admitting)...)
	if len(o.Base) > 0 {
		in.Problems = append(in.Problems, plan.SnapshotOnly(in.Base)...)
	}
	if bs != nil {
		in.BaseOptions = &bs.Options
	}
	return nil
}

// sameAdmission reports whether two sides' API servers admit objects
// alike.
func sameAdmission(a, b config.Settings) bool {
	return a.Options.NFDRelease().Schema == b.Options.NFDRelease().Schema && a.StrictFieldValidation == b.StrictFieldValidation
}

// releaseSides say how the sides' releases differ: "NFD v0.17.1 →
// v0.19.0", and "CRDs v0.17.3 → v0.19.0" when a side's CRDs were named
// (crds) or the CRDs alone differ.
func releaseSides(head, base release.Release, crds bool) []string {
	var out []string
	if head.Name != base.Name {
		out = append(out, fmt.Sprintf("NFD %s → %s", base, head))
	}
	if head.Schema != base.Schema && (crds || head.Name == base.Name) {
		out = append(out, fmt.Sprintf("CRDs %s → %s", base.Schema, head.Schema))
	}
	return out
}

func orDefaults(path string) string {
	if path == "" {
		return "nfd-master's defaults"
	}
	return path
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

// firstError is the first error of l.
func firstError(l diag.List) diag.Diagnostic {
	for _, d := range l {
		if d.Severity == diag.Error {
			return d
		}
	}
	return diag.Diagnostic{}
}
