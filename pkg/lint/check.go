package lint

import (
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Run is the whole check of a set: the master pipeline renders the fleet
// (its input and compile diagnostics included), node by node, keeping of
// each node only what the fleet checks count (FleetCheck), so memory does
// not grow with the fleet; then lint's static checks run. Diagnostics are
// placed at their objects' origins and sorted by position. The per-node
// problems (master.Fleet's NodeDiagnostics: a template that failed where
// its rule matched, an output a node's values make invalid) are reported
// as render reports them, those a static finding already covers left out
// (Uncovered), so that validate and render give one verdict.
func Run(set *objects.Set, opts Options) diag.List {
	p := master.Prepare(set, opts.Master)
	st := p.Stream(master.StreamOptions{})
	check := NewFleetCheck(set, opts.Master, p.NodeNames())
	st.Observe(check.Add)
	if opts.Observe != nil {
		opts.Observe(p, st)
	}
	st.Render(st.All(), nil)
	fleet := st.Finish()
	ds := append(diag.List(nil), fleet.Diagnostics...)
	ds = append(ds, OnTheFleet(Static(set, opts), fleet.NodeDiagnostics)...)
	ds = append(ds, check.Findings()...)
	// What failed on the given nodes, as render reports it: one verdict
	// on one input.
	ds = append(ds, Uncovered(fleet.NodeDiagnostics, ds)...)
	set.Place(ds)
	ds.SortByPosition()
	return ds
}
