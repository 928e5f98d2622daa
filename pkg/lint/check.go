package lint

import (
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Run is the whole check of a set: the master pipeline renders the fleet
// (its input and compile diagnostics included), then lint's static and
// fleet checks run on it. Diagnostics are placed at their objects' origins
// and sorted by position. Per-node problems stay in the fleet's
// NodeDiagnostics for callers that want them (render).
func Run(set *objects.Set, opts Options) (*master.Fleet, diag.List) {
	fleet := master.Render(set, opts.Master)
	ds := append(diag.List(nil), fleet.Diagnostics...)
	ds = append(ds, Static(set, opts)...)
	ds = append(ds, Fleet(set, fleet, opts.Master)...)
	set.Place(ds)
	ds.SortByPosition()
	return fleet, ds
}
