package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// maxLocated bounds how many objects locateLean parses again: a problem
// of 60,000 NodeFeatures that does not fold (each message names its
// own node) keeps its file alone past it, not a parse of each.
const maxLocated = 1000

// locateLean gives the diagnostics about NodeFeatures and Nodes read from
// files without a tree (decoded lean, for memory), which name only their
// file, the line and column of their field, parsing those objects' text
// again, each once: what validate's reader does (inputs.Reader.Locate)
// for the objects of a ResourceList built from files.
func locateLean(rl *krm.ResourceList, ds diag.List) {
	type place struct {
		file  string
		index int
		obj   diag.ObjectRef
	}
	about := map[place][]int{}
	for i := range ds {
		d := &ds[i]
		if d.Pos.Line != 0 || d.Pos.File == "" || (d.Object.Kind != api.KindNodeFeature && d.Object.Kind != "Node") {
			continue
		}
		k := place{d.Pos.File, d.Pos.Index, d.Object.Key()}
		if _, seen := about[k]; !seen && len(about) == maxLocated {
			continue
		}
		about[k] = append(about[k], i)
	}
	if len(about) == 0 {
		return
	}
	for _, it := range rl.Items {
		if !it.ReadFromFile() || it.ParseErr != nil {
			continue
		}
		k := place{it.File, it.Index, diag.ObjectRef{APIVersion: it.APIVersion, Kind: it.Kind, Namespace: it.Namespace, Name: it.Name}.Key()}
		is, ok := about[k]
		if !ok {
			continue
		}
		tree, _ := it.ParseTree()
		if tree == nil {
			continue
		}
		for _, i := range is {
			ds[i].Pos = objects.Origin{File: it.File, Index: it.Index, Node: tree}.Position(ds[i].Field, false)
		}
	}
}
