package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// maxLocated bounds how many objects locateLean parses again: a problem
// of 60,000 NodeFeatures that does not fold (each message names its
// own node) keeps its file alone past it, not a parse of each.
const maxLocated = 1000

// locateLean gives the diagnostics about NodeFeatures and Nodes read from
// files without a tree (decoded lean, for memory), which name only their
// file, the line and column of their field (inputs.LocateIn, as
// validate's reader does) for the objects of a ResourceList built from
// files.
func locateLean(rl *krm.ResourceList, ds diag.List) {
	type place struct {
		file  string
		index int
		obj   diag.ObjectRef
	}
	var read map[place]*krm.Item // made once a diagnostic needs it
	inputs.LocateIn(ds, maxLocated, func(d *diag.Diagnostic) *krm.Item {
		if d.Pos.File == "" || (d.Object.Kind != api.KindNodeFeature && d.Object.Kind != "Node") {
			return nil
		}
		if read == nil {
			read = map[place]*krm.Item{}
			for _, it := range rl.Items {
				if it.ReadFromFile() && it.ParseErr == nil {
					ref := diag.ObjectRef{Kind: it.Kind, Namespace: it.Namespace, Name: it.Name}
					read[place{it.File, it.Index, ref}] = it
				}
			}
		}
		return read[place{d.Pos.File, d.Pos.Index, d.Object.Key()}]
	})
}
