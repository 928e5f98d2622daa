package fn

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// StdinPath is the file argument that reads standard input as one file.
const StdinPath = "-"

// RunFiles runs the function over files and directories instead of a
// ResourceList on stdin, the way kpt runs it over a package: every object
// (directories walked for .yaml, .yml and .json; multi-document YAML, JSON
// and v1 Lists, kubectl's exports, all read) becomes an item annotated
// with its file and index, config (nil for the defaults) is the
// functionConfig, and the output is the ResourceList stdin mode writes.
// Documents that are not objects nfd-fn reads are skipped with an info
// result; errors name file:line:col on ErrorLog. "-" reads stdin.
//
// Block-style YAML and JSON files are mapped and cut into objects without
// a full parse, and stream as stdin does (krm.ReadFiles); other files are
// parsed whole, up to objects.MaxFileSize each.
func RunFiles(paths []string, stdin io.Reader, config *yaml.Node, out io.Writer, opts RunOptions) (int, error) {
	in := NewStdin(stdin)
	defer in.Close()
	files, inputs, err := openFiles(paths, in)
	if err != nil {
		return 1, err
	}
	defer inputs.Close()
	if opts.Release == nil {
		opts.Release = inputs.Release
	}
	if lists, _ := splitLists(files, inputs.Release); len(lists) > 0 {
		return runListFile(files, lists[0], config, out, opts)
	}
	r := &report{lines: true}
	rl, err := readFiles(files, config, keepFileItemNode, inputs, opts.Release, r)
	if err != nil {
		return 1, err
	}
	r.extend(skipped(rl))
	if _, err := process(rl, out, opts, r); err != nil {
		return 1, err
	}
	return r.exitCode(), nil
}

// runListFile runs the function over a ResourceList given as a file
// (list, among files) as it runs over one on stdin: read by the same
// splitter, streamed, written back the same way (JSON as JSON), with the
// same results. The list is rendered alone: its items are the package,
// and its own items' path annotations say where they belong, which
// objects from other files would not share. Its functionConfig, or
// config, configures the run (ConfigFor).
func runListFile(files []krm.File, list krm.File, config *yaml.Node, out io.Writer, opts RunOptions) (int, error) {
	if len(files) > 1 {
		other := files[0].Name
		if other == list.Name {
			other = files[1].Name
		}
		return 1, fmt.Errorf("%s is a ResourceList, which nfd-fn reads alone, as it reads stdin (its items are the package): "+
			"run it apart from %s, or add those objects to its items", list.Name, other)
	}
	rl, err := readList(list.Data, opts)
	if err != nil {
		return 1, fmt.Errorf("reading %s: %w", list.Name, err)
	}
	if rl.FunctionConfig, err = ConfigFor(config, rl.FunctionConfig, list.Name); err != nil {
		return 1, err
	}
	r, err := process(rl, out, opts, &report{input: list.Name})
	if err != nil {
		return 1, err
	}
	return r.exitCode(), nil
}

// readFiles reads opened files as the ResourceList of their objects
// (krm.ReadFiles), each decoded on the worker pool as it is cut: lean
// where it can be (decodeItemRaw), else from a tree that keep says
// whether to hold on to. release (may be nil) is told of input bytes read;
// closing inputs (may be nil) ends what lean NodeFeatures can read again.
// Files the cutter does not read are parsed whole (parseFile), their
// problems going to r.
func readFiles(files []krm.File, config *yaml.Node, keep func(*krm.Item) bool, inputs *krm.Inputs, release func([]byte), r *report) (*krm.ResourceList, error) {
	read := krm.ReadOptions{Decoder: newItemDecoder(keep, inputs, release), Release: release}
	return krm.ReadFiles(files, config, read, func(f int) ([]krm.Doc, error) {
		docs, found, err := parseFile(files[f])
		r.extend(found)
		return docs, err
	})
}

// openFiles opens every file under paths, in order ("-" is stdin, named
// "stdin").
func openFiles(paths []string, stdin *Stdin) ([]krm.File, *krm.Inputs, error) {
	var names []string
	for _, p := range paths {
		if p == StdinPath {
			names = append(names, p)
			continue
		}
		found, err := objects.CollectFiles([]string{p})
		if err != nil {
			return nil, nil, err
		}
		names = append(names, found...)
	}
	return openNamed(names, stdin)
}

// openNamed opens the files named, in order; with stdin set, "-" is
// stdin, named "stdin" (without, a file named "-"), which its owner
// closes.
func openNamed(names []string, stdin *Stdin) ([]krm.File, *krm.Inputs, error) {
	inputs := &krm.Inputs{}
	files := make([]krm.File, 0, len(names))
	for _, name := range names {
		if name == StdinPath && stdin != nil {
			in, err := stdin.open()
			if err != nil {
				inputs.Close()
				return nil, nil, err
			}
			inputs.Borrow(in)
			files = append(files, krm.File{Name: "stdin", Data: in.Data})
			continue
		}
		in, err := krm.OpenFile(name, 0)
		if err != nil {
			inputs.Close()
			return nil, nil, err
		}
		inputs.Add(in)
		files = append(files, krm.File{Name: name, Data: in.Data})
	}
	return files, inputs, nil
}

// argFiles lists the files under paths as objects.CollectFiles does
// (directories walked, each run of paths sorted together), keeping "-"
// (stdin) in its place.
func argFiles(paths []string) ([]string, error) {
	var names, run []string
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		found, err := objects.CollectFiles(run)
		names, run = append(names, found...), nil
		return err
	}
	for _, p := range paths {
		if p != StdinPath {
			run = append(run, p)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		names = append(names, p)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return names, nil
}

// parseFile parses a file the cutter does not read (flow style, a
// document that is not a mapping, an object that does not parse on its
// own) whole: its objects, and diagnostics for the documents that are not
// objects and for a syntax error (the documents before it count). A
// template that is not YAML (Helm's {{ }}) is one info note, no objects.
func parseFile(f krm.File) ([]krm.Doc, diag.List, error) {
	if len(f.Data) > objects.MaxFileSize {
		return nil, nil, fmt.Errorf("reading %s: %d bytes, more than the %d bytes nfd-fn parses whole from one file: only block-style YAML and JSON "+
			"(what kubectl get -o yaml|json writes) are read in parts; convert the file or send it on stdin", f.Name, len(f.Data), objects.MaxFileSize)
	}
	var docs []krm.Doc
	var found diag.List
	ds, bad := objects.ReadDocuments(f.Data, f.Name)
	if bad != nil {
		if note, ok := objects.TemplateNote(f.Data, f.Name); ok {
			// A Helm template beside the rules: not YAML until rendered,
			// so neither an error nor objects; noted and left out.
			return nil, diag.List{note}, nil
		}
	}
	for _, d := range ds {
		if d.Node.Kind != yaml.MappingNode || d.Node.ShortTag() != "!!map" {
			// Not an object (a scalar, a list, a mapping under a tag of
			// its own): it cannot be an item of the output list.
			o := objects.Origin{File: f.Name, Index: d.Index, Item: -1, Node: d.Node}
			found = append(found, objects.OtherNote(&objects.Decoded{Class: objects.NotObject}, o))
			continue
		}
		docs = append(docs, krm.Doc{Node: d.Node, File: f.Name, Index: d.Index})
	}
	if bad != nil {
		found = append(found, *bad)
	}
	return docs, found, nil
}

// keepFileItemNode keeps the trees of objects read from files, for the
// positions of what is reported about them, except those a fleet holds
// thousands of: NodeFeatures, and Nodes that keepItemNode lets go.
func keepFileItemNode(it *krm.Item) bool {
	if it.Kind != "NodeFeature" && it.Kind != "Node" {
		return true
	}
	return keepItemNode(it)
}

// skipped notes the items that are objects nfd-fn does not read; they pass
// through untouched. (Items that are not objects at all are errors, from
// objects.Set.Add.)
func skipped(rl *krm.ResourceList) diag.List {
	return foldSkipped(otherNotes(rl, false))
}

// otherNotes notes, one by one, every object of the items that nfd-fn
// does not read. With parse, an object decoded without a tree is parsed
// again from its text for the note's position (and let go again).
func otherNotes(rl *krm.ResourceList, parse bool) diag.List {
	var out diag.List
	for _, it := range rl.Items {
		d, ok := it.Decoded.(*decodedItem)
		if !ok {
			continue
		}
		for i, o := range d.objects {
			if o.Class != objects.Other {
				continue
			}
			origin := objects.Origin{File: it.File, Index: it.Index, Item: it.Pos}
			switch {
			case d.nodes != nil:
				origin.Node = d.nodes[i]
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
		Message: fmt.Sprintf("and %s that are not NFD kinds, skipped and passed through unchanged: %s", plural(rest, "more object"), strings.Join(parts, ", "))})
}
