package krm

import (
	"encoding/json"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/nfd-fn/nfd-fn/internal/parallel"
)

// File is one file of a package: its name, as the path annotation gives
// it, and its text (a mapped Input's Data, say).
type File struct {
	Name string
	Data []byte
}

// Doc is an object read from a file by a full parse: its tree, the file
// and its index there.
type Doc struct {
	Node  *yaml.Node
	File  string
	Index int
}

// fileIndent is the column of the items' dashes in a list read from
// files without a v1 List: where kpt and yaml.v3 put them. With a List
// (a kubectl export), the items are written at its items' column.
const fileIndent = 2

// ReadFiles builds the ResourceList of the objects in files, as kpt
// builds one from a package: every object is an item annotated on output
// with the path and index of where it came from, and functionConfig is fc
// (nil for none).
//
// Files in block-style YAML (what kubectl, kpt and nfd-worker write) are
// cut into objects without parsing them whole (a v1 List's items are
// objects of their own); each object is decoded as Read decodes an item
// (Decoder.DecodeRaw, then a parse and Decoder.Decode), and written back as its own text,
// re-indented, with the annotations added. Positions in the objects'
// trees count from the start of their file. Any other file (JSON, flow
// style, a document that is not a mapping), or one with an object that
// does not parse on its own, is given to whole, in file order, which
// parses it and returns its objects (or fails the read); those are
// decoded by Decoder.Decode, keep their trees and are encoded on output. A file
// larger than Limits.MaxTreeBytes is not parsed whole: its objects
// that do not parse carry ParseErr, as a ResourceList's items do.
func ReadFiles(files []File, fc *yaml.Node, opts ReadOptions, whole func(f int) ([]Doc, error)) (*ResourceList, error) {
	opts.Limits = opts.Limits.withDefaults()
	rl := &ResourceList{FunctionConfig: fc, APIVersion: kio.ResourceListAPIVersion, Kind: kio.ResourceListKind,
		fast: true, fromFiles: true, release: opts.Release}
	header, err := fileListHeader(fc)
	if err != nil {
		return nil, err
	}
	rl.sp = split{sections: header, indent: -1}
	rl.json = allJSON(files)
	add, wait := parallel.Stream(func(it *Item) { it.unparsed = !it.fromFileParse(opts) })
	cut := make([][]*Item, len(files))
	index := make([][]int, len(files)) // each item's document index, set once parsed
	total := 0
	for i, f := range files {
		// A List's items are parsed as they are cut; a document that is
		// not a List after all drops them.
		var early []*Item
		objs, ok := cutFile(f.Data, opts.Release, func(c chunk) {
			it := &Item{Raw: c.raw, Line: c.line, File: f.Name, fromFile: true, json: c.json}
			if early = append(early, it); total+len(early) <= opts.Limits.MaxItems {
				add(it)
			}
		})
		if !ok {
			continue
		}
		cut[i], index[i] = make([]*Item, len(objs)), make([]int, len(objs))
		for k, o := range objs {
			index[i][k] = o.index
			for len(early) > 0 && early[0].Line < o.line {
				early = early[1:]
			}
			if !o.doc && !o.json && rl.sp.indent < 0 {
				// Items are written where the first List's are (kubectl:
				// column 0), which its items then keep, unshifted.
				rl.sp.indent = leadingSpaces(o.raw)
			}
			if !o.doc && len(early) > 0 && early[0].Line == o.line && early[0].json == o.json {
				cut[i][k], early = early[0], early[1:]
				continue
			}
			cut[i][k] = &Item{Raw: o.raw, Line: o.line, File: f.Name, fromFile: true, doc: o.doc, json: o.json}
			if total+k < opts.Limits.MaxItems {
				add(cut[i][k])
			}
		}
		if total += len(objs); total > opts.Limits.MaxItems {
			wait()
			return nil, fmt.Errorf("reading %s: %w: more than %d objects", f.Name, ErrLimit, opts.Limits.MaxItems)
		}
	}
	wait()
	if rl.sp.indent < 0 {
		rl.sp.indent = fileIndent
	}
	broken := make([]bool, len(files))
	for i, items := range cut {
		for k, it := range items {
			it.Index = index[i][k]
			broken[i] = broken[i] || it.unparsed || it.ParseErr != nil
		}
	}
	for i, f := range files {
		if cut[i] != nil && (!broken[i] || len(f.Data) > opts.Limits.MaxTreeBytes) {
			// A file too large to parse whole keeps its good objects; the
			// broken ones carry ParseErr, for the caller to report.
			for _, it := range cut[i] {
				if it.unparsed && it.ParseErr == nil {
					it.ParseErr = errors.New("a List item that is not a block mapping (a scalar, flow style or a tag)")
				}
			}
			rl.Items = append(rl.Items, cut[i]...)
			continue
		}
		docs, err := whole(i)
		if err != nil {
			return nil, err
		}
		// A file that opens with "{" but is YAML in flow style may hold
		// what JSON cannot (a mapping used as a key): the list is then
		// written as YAML.
		rl.json = rl.json && json.Valid(f.Data)
		for _, d := range docs {
			it := NewItem(d.Node)
			it.File, it.Index, it.fromFile = d.File, d.Index, true
			if opts.Decoder != nil {
				opts.Decoder.Decode(it) // the object as the file has it
			}
			annotatePlace(d.Node, d.File, d.Index)
			rl.Items = append(rl.Items, it)
		}
	}
	if len(rl.Items) > opts.Limits.MaxItems {
		return nil, fmt.Errorf("reading the files: %w: %d objects, more than %d", ErrLimit, len(rl.Items), opts.Limits.MaxItems)
	}
	for i, it := range rl.Items {
		it.Pos = i
	}
	return rl, nil
}

// allJSON reports files that all open with an object, as JSON (kubectl
// get -o json, a JSON List) does: the list read from them is written as
// JSON, as a JSON list on stdin is (the KRM function specification: JSON
// in, JSON out), unless a file parsed whole is not JSON after all.
func allJSON(files []File) bool {
	for _, f := range files {
		if !looksLikeJSON(f.Data) {
			return false
		}
	}
	return len(files) > 0
}

// fileListHeader is the top of a list read from files: its apiVersion,
// kind and functionConfig, then the items.
func fileListHeader(fc *yaml.Node) ([]section, error) {
	ss := []section{
		{key: "apiVersion", raw: []byte("apiVersion: " + kio.ResourceListAPIVersion + "\n")},
		{key: "kind", raw: []byte("kind: " + kio.ResourceListKind + "\n")},
	}
	if fc != nil {
		text, err := Encode(mapping(StrNode("functionConfig"), fc))
		if err != nil {
			return nil, fmt.Errorf("writing the functionConfig: %w", err)
		}
		ss = append(ss, section{key: "functionConfig", raw: text})
	}
	return append(ss, section{key: "items"}), nil
}

// annotatePlace sets the path and index annotations of an object read
// from file, at its index there, as kpt sets them.
func annotatePlace(n *yaml.Node, file string, index int) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	SetPlace(EnsureMap(EnsureMap(n, "metadata"), "annotations"), file, index)
}
