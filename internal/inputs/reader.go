package inputs

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Reader reads files and directories into an objects.Set the way
// fn.RunFiles reads them for a render: mapped rather than read into memory;
// block YAML and JSON (kubectl's exports among them) cut into objects
// without a tree of the whole file, each decoded on the worker pool;
// NodeFeatures and Nodes kept lean (fastread.DecodeLean: a NodeFeature's
// spec is read again from the mapped text when asked for, its Load);
// other files parsed whole, up to objects.MaxFileSize. It is how
// validate, explain and plan read their file arguments.
//
// The trees of rules and groups are kept, for the positions of what is
// reported about them; those of NodeFeatures and Nodes are not, a fleet
// holding thousands (keepForChecks). The few positions reported in them
// are found again from their text: by Read for an object defined twice,
// and by Locate for what is found later.
//
// The set owns the files read (objects.Set.Own): they stay mapped until
// Close; after it, loading a lean NodeFeature's spec is an error
// (krm.ErrClosed), never a fault.
type Reader struct {
	// Stdin, when set, is read for the file argument "-".
	Stdin *Stdin
	set   *objects.Set
	// last is the item each object of the set, by key, was last read
	// from.
	last map[diag.ObjectRef]*krm.Item
	// images are the NFD releases the nfd-master Deployments and
	// nfd-worker DaemonSets read show (Admit).
	images imagesShown
	// crds are the NFD CustomResourceDefinitions read, for Admit.
	crds []shownCRD
	// workers are the nfd-worker configuration ConfigMaps read, for
	// WorkerConfig.
	workers workerConfigs
	// ranked is how many files earlier reads ranked.
	ranked int
	// Skipped counts the files the reads left out as not mentioning NFD
	// (objects.Set.OnlyNFDFiles).
	Skipped int
	// patches are the files kustomizations name as patches, left out of
	// the reads (SkipKustomizePatches).
	patches map[string]patchOf
}

// NewReader returns a reader into set, whose settings apply
// (OnlyNFDFiles, NoOpenShiftAlias).
func NewReader(set *objects.Set) *Reader {
	return &Reader{set: set, last: map[diag.ObjectRef]*krm.Item{}, workers: workerConfigs{lines: true}}
}

// Read reads every file under paths (objects.CollectFiles: directories
// walked for .yaml, .yml and .json files, hidden ones skipped; all sorted)
// into the set, skipping silently those that do not mention NFD when the
// set asks for OnlyNFDFiles. It returns the problems in the files, file by
// file and document by document (documents that do not parse or are not
// objects, objects the set refuses or a later one replaces, templates left
// unchecked and, with note, every document skipped as not of a kind nfd-fn
// reads), and the number of files read. A file that cannot be read at
// all, or is parsed whole and larger than objects.MaxFileSize, is an error.
func (fr *Reader) Read(paths []string, note bool) (diag.List, int, error) {
	names, err := argFiles(paths)
	if err != nil {
		return nil, 0, err
	}
	files, inputs, err := openNamed(names, fr.Stdin)
	if err != nil {
		return nil, 0, err
	}
	fr.set.Own(inputs)
	ranks := make(map[string]int, len(files))
	for i, f := range files {
		ranks[f.Name] = fr.ranked + i // after the files of earlier reads
	}
	fr.ranked += len(files)
	byFile := func(_ int, it *krm.Item) int { return ranks[it.File] }
	var workerOnly []krm.File
	if fr.set.OnlyNFDFiles {
		all := len(files)
		files, workerOnly = mentioningNFD(files, inputs.Release)
		fr.Skipped += all - len(files) - len(workerOnly)
	}
	files, patches := leavePatchesOut(files, fr.patches, note, inputs.Release)
	lists, others := SplitLists(files, inputs.Release)
	found := patches
	for _, f := range lists {
		rl, err := readListFile(f, keepForChecks, inputs, inputs.Release)
		if err != nil {
			// As a file that does not parse: an error about the file.
			found = append(found, diag.Diagnostic{Severity: diag.Error, Check: "yaml", Pos: diag.Position{File: f.Name},
				Message: fmt.Sprintf("the ResourceList cannot be read: %v", err)})
			continue
		}
		found = append(found, fr.add(rl, note, func(int, *krm.Item) int { return ranks[f.Name] })...)
	}
	rl, more, err := readFiles(others, nil, keepForChecks, inputs, inputs.Release)
	if err != nil {
		return nil, 0, err
	}
	found = append(append(found, more...), fr.add(rl, note, byFile)...)
	fr.readWorkerOnly(workerOnly, inputs, byFile)
	fr.Locate(found) // should a problem met reading be about a lean object
	// In the order of the files and of their documents, as they were met.
	slices.SortStableFunc(found, func(a, b diag.Diagnostic) int {
		return cmp.Or(strings.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Index, b.Pos.Index))
	})
	return found, len(files), nil
}

// add adds the objects of a list read to the set and returns their
// problems (and, with note, the objects skipped); the worker ConfigMaps
// among them are kept for WorkerConfig, their files ranked by rank.
func (fr *Reader) add(rl *krm.ResourceList, note bool, rank func(int, *krm.Item) int) diag.List {
	fr.workers.look(rl.Items, rank)
	found := addItems(fr.set, rl, fr.track)
	fr.images.add(workloadReleases(rl.Items))
	fr.crds = append(fr.crds, crdsOf(rl.Items)...)
	if note {
		found = append(found, otherNotes(rl, true)...)
	}
	for _, it := range rl.Items {
		it.Decoded = nil // the set holds what is needed
	}
	return found
}

// keepForChecks keeps the trees of what validate, explain and plan point
// into: every object but the NodeFeatures and Nodes, which a fleet holds
// thousands of (most are decoded without one: fastread.DecodeLean,
// DecodeNodeFast). Decoding errors in those carry their lines, an object
// defined twice gets its tree (Reader.track), and what is found later
// Locate places.
func keepForChecks(it *krm.Item) bool {
	d, ok := decoded(it)
	if !ok {
		return true
	}
	for _, o := range d.objects {
		if !fleetObject(o) {
			return true
		}
	}
	d.nodes = nil
	return false
}

// fleetObject reports a NodeFeature or a Node.
func fleetObject(o *objects.Decoded) bool {
	return o.Class == objects.KubeNode || (o.Class == objects.NFD && o.Ref.Kind == api.KindNodeFeature)
}

// mentioningNFD keeps the files that mention NFD (objects.MentionsNFD)
// or may hold an nfd-master Deployment or nfd-worker DaemonSet, which
// show the release (showsNFDImage); of the others, those that may hold an
// nfd-worker configuration ConfigMap are returned apart (workerOnly), and
// the pages of the rest, read to tell, are given back.
func mentioningNFD(files []krm.File, release func([]byte)) (out, workerOnly []krm.File) {
	out = files[:0]
	for _, f := range files {
		switch {
		case objects.MentionsNFD(f.Data) || showsNFDImage(f.Data) || objects.NotText(f.Data):
			out = append(out, f)
		case holdsWorkerConfig(f.Data):
			workerOnly = append(workerOnly, f)
		default:
			release(f.Data)
		}
	}
	return out, workerOnly
}

// readWorkerOnly reads the files kept only for the nfd-worker
// configuration ConfigMap they may hold (mentioningNFD): their worker
// ConfigMaps are kept for WorkerConfig, ranked by rank, and nothing else
// of them counts: their objects are not added, and their problems, or a
// failure to read them, are not validate's to report (it skips files
// that do not mention NFD).
func (fr *Reader) readWorkerOnly(files []krm.File, inputs *krm.Inputs, rank func(int, *krm.Item) int) {
	if len(files) == 0 {
		return
	}
	rl, _, err := readFiles(files, nil, keepForChecks, inputs, inputs.Release)
	if err == nil {
		fr.workers.look(rl.Items, rank)
	}
}

// WorkerConfig is the nfd-worker configuration among the files read, as
// among a ResourceList's items (WorkerConfigIn): the first ConfigMap with
// data["nfd-worker.conf"] in the order of the files and their documents,
// nil when there is none; one before it that cannot be read is an error
// about it, among the returned problems. A set that reads only the files
// mentioning NFD (objects.Set.OnlyNFDFiles) still finds it in the others.
func (fr *Reader) WorkerConfig() (*lint.WorkerConfig, diag.List) {
	return fr.workers.first()
}

// showsNFDImage reports a file that may hold a workload running an NFD
// image: it names NFD's image and a Deployment or DaemonSet.
func showsNFDImage(data []byte) bool {
	return bytes.Contains(data, []byte("node-feature-discovery")) &&
		(bytes.Contains(data, []byte("Deployment")) || bytes.Contains(data, []byte("DaemonSet")))
}

// track records the item each NodeFeature and Node of the set comes from.
// One defined twice is given its tree, and so is the one it replaces, so
// that the error names both places at their lines.
func (fr *Reader) track(it *krm.Item, d *decodedItem, i int, o *objects.Origin) {
	obj := d.objects[i]
	if !fleetObject(obj) {
		return
	}
	key := obj.Ref.Key()
	prev, dup := fr.last[key]
	fr.last[key] = it
	if !dup {
		return
	}
	if o.Node == nil {
		o.Node = itemDocument(it, d, i)
	}
	if first := latestOrigin(fr.set, key); first != nil && first.Node == nil {
		first.Node = prev.Tree() // an item read without a tree holds one object
	}
}

// Locate gives the diagnostics about NodeFeatures and Nodes read without a
// tree, which name only their file, the line and column of their field,
// parsing those objects' text again (LocateIn). It is for what is found
// after Read (lint's checks, the plan's) and must be called before Close.
func (fr *Reader) Locate(ds diag.List) {
	LocateIn(ds, -1, func(d *diag.Diagnostic) *krm.Item { return fr.last[d.Object.Key()] })
}

// LocateIn gives each diagnostic that names only a file, and whose object
// itemOf finds read from that file and index, the line and column of its
// field, parsing the object's text again: objects read lean (no tree,
// for memory) are placed as those read with one. Each object's text is
// parsed once, for all of its diagnostics, and its tree let go before the
// next: a static error on each of 60,000 NodeFeatures holds one tree at a
// time, not 60,000. Past max objects (-1: no limit), diagnostics keep
// their file alone.
func LocateIn(ds diag.List, max int, itemOf func(*diag.Diagnostic) *krm.Item) {
	var items []*krm.Item
	about := map[*krm.Item][]int{} // the diagnostics about each item
	for i := range ds {
		d := &ds[i]
		if d.Pos.Line != 0 {
			continue
		}
		it := itemOf(d)
		if it == nil || d.Pos.File != it.File || d.Pos.Index != it.Index {
			continue
		}
		if _, seen := about[it]; !seen {
			if len(items) == max {
				continue
			}
			items = append(items, it)
		}
		about[it] = append(about[it], i)
	}
	for _, it := range items {
		tree, _ := it.ParseTree()
		if tree == nil {
			continue
		}
		for _, i := range about[it] {
			ds[i].Pos = objects.Origin{File: it.File, Index: it.Index, Node: tree}.Position(ds[i].Field, false)
		}
	}
}

// Close closes the set, which unmaps the files read; the set's lean
// NodeFeatures cannot be read again after it (their Load returns
// krm.ErrClosed).
func (fr *Reader) Close() error { return fr.set.Close() }

// latestOrigin is the origin of the last NodeFeature or Node of the set
// with key (track follows only those), nil when there is none.
func latestOrigin(set *objects.Set, key diag.ObjectRef) *objects.Origin {
	if key.Kind == api.KindNodeFeature {
		return lastOrigin(set.Features, key, objects.FeatureRef)
	}
	return lastOrigin(set.Nodes, key, func(n *objects.Node) diag.ObjectRef { return objects.NodeRef(n.Name) })
}

func lastOrigin[T any](objs []objects.Object[T], key diag.ObjectRef, ref func(T) diag.ObjectRef) *objects.Origin {
	for i := len(objs) - 1; i >= 0; i-- {
		if ref(objs[i].Obj).Key() == key {
			return &objs[i].Origin
		}
	}
	return nil
}
