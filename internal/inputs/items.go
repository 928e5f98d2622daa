package inputs

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// AddItems adds the objects of a read list's items to set and returns
// the problems: items that cannot be read, items (or items of a List
// item) that are not objects, and objects nfd-fn reads that do not decode
// cleanly or have no valid name (objects.Set.Add says which). An item
// that is not an object is marked Omitted, for the output to stay a
// ResourceList.
func AddItems(set *objects.Set, rl *krm.ResourceList) diag.List {
	return addItems(set, rl, nil)
}

// addItems is AddItems; before, when set, is called with every object
// (the i-th of an item) and its origin just before the set takes it.
func addItems(set *objects.Set, rl *krm.ResourceList, before func(it *krm.Item, d *decodedItem, i int, o *objects.Origin)) diag.List {
	var out diag.List
	eachDecoded(rl, &out, func(it *krm.Item, d *decodedItem) {
		trees := d.nodes
		for i, o := range d.objects {
			origin := objects.Origin{File: it.File, Index: it.Index, Item: it.Pos}
			if trees != nil {
				origin.Node = trees[i]
			}
			if before != nil {
				before(it, d, i, &origin)
			}
			out = append(out, set.Add(o, origin)...)
			if o.Class == objects.NotObject && it.Kind != "List" {
				// A scalar, a list or a tagged mapping as an item: reported,
				// and left out, for the output to stay a ResourceList.
				it.Omitted = true
			}
		}
	})
	return out
}

// eachDecoded calls each with every decoded item of rl, in order, and
// adds an error to out for each item that cannot be read, where it
// stands among what each adds.
func eachDecoded(rl *krm.ResourceList, out *diag.List, each func(it *krm.Item, d *decodedItem)) {
	for _, it := range rl.Items {
		if it.ParseErr != nil {
			*out = append(*out, unreadable(it))
			continue
		}
		if d, ok := decoded(it); ok {
			each(it, d)
		}
	}
}

// unreadable is the error about an item that cannot be read: by its
// place in the ResourceList, or by its file and line.
func unreadable(it *krm.Item) diag.Diagnostic {
	if !it.ReadFromFile() {
		return diag.Diagnostic{Severity: diag.Error, Object: ItemRef(it), Pos: diag.Position{File: it.File, Index: it.Index},
			Message: fmt.Sprintf("items[%d] (line %d) cannot be read and is left out of the output: %v", it.Pos, it.Line, it.ParseErr)}
	}
	return diag.Diagnostic{Severity: diag.Error, Check: "yaml", Object: ItemRef(it), Pos: diag.Position{File: it.File, Index: it.Index, Line: it.Line, Column: 1},
		Message: fmt.Sprintf("the object starting here cannot be read and is left out of the output: %v", it.ParseErr)}
}

// AboutItem is d, made by a producer that does not know the item, about
// an item (nil: about the run as a whole) and a field in it: its
// severity, check, message and nodes are kept.
func AboutItem(it *krm.Item, field string, d diag.Diagnostic) diag.Diagnostic {
	d.Field = field
	if it != nil {
		d.Object = ItemRef(it)
		d.Pos = diag.Position{File: it.File, Index: it.Index}
	}
	return d
}

// ItemRef names an item's object.
func ItemRef(it *krm.Item) diag.ObjectRef {
	return diag.ObjectRef{APIVersion: it.APIVersion, Kind: it.Kind, Name: it.Name, Namespace: it.Namespace}
}

// itemDocument is the i-th object of an item, parsed again when the
// reader let the item's tree go.
func itemDocument(it *krm.Item, d *decodedItem, i int) *yaml.Node {
	if trees := d.nodes; trees != nil {
		return trees[i]
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

// Skipped notes the items that are objects nfd-fn does not read; they
// pass through untouched. (Items that are not objects at all are errors,
// from objects.Set.Add.)
func Skipped(rl *krm.ResourceList) diag.List {
	return foldSkipped(otherNotes(rl, false))
}

// otherNotes notes, one by one, every object of the items that nfd-fn
// does not read. With parse, an object decoded without a tree is parsed
// again from its text for the note's position (and let go again).
func otherNotes(rl *krm.ResourceList, parse bool) diag.List {
	var out diag.List
	for _, it := range rl.Items {
		d, ok := decoded(it)
		if !ok {
			continue
		}
		trees := d.nodes
		for i, o := range d.objects {
			if o.Class != objects.Other {
				continue
			}
			origin := objects.Origin{File: it.File, Index: it.Index, Item: it.Pos}
			switch {
			case trees != nil:
				origin.Node = trees[i]
			case parse:
				origin.Node = itemDocument(it, d, i)
				it.Node = nil
			}
			out = append(out, objects.OtherNote(o, origin))
		}
	}
	return out
}

// maxSkippedNotes is how many objects skipped one by one get a note of
// their own; the rest are counted in one.
const maxSkippedNotes = 20

// foldSkipped keeps the first maxSkippedNotes notes and sums up the rest
// in one, by kind: a directory of 100,000 ConfigMaps is one line more,
// not 100,000.
func foldSkipped(notes diag.List) diag.List {
	if len(notes) <= maxSkippedNotes {
		return notes
	}
	counts := map[string]int{}
	for _, d := range notes[maxSkippedNotes:] {
		counts[strings.TrimSpace(d.Object.APIVersion+" "+d.Object.Kind)]++
	}
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if counts[kinds[i]] != counts[kinds[j]] {
			return counts[kinds[i]] > counts[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	var parts []string
	for i, k := range kinds {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("%d more kinds", len(kinds)-5))
			break
		}
		if k == "" {
			k = "without apiVersion and kind"
		}
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	rest := len(notes) - maxSkippedNotes
	return append(notes[:maxSkippedNotes:maxSkippedNotes], diag.Diagnostic{Severity: diag.Info, Check: "other-kind",
		Message: fmt.Sprintf("and %s that are not NFD kinds, skipped and passed through unchanged: %s", diag.Plural(rest, "more object"), strings.Join(parts, ", "))})
}
