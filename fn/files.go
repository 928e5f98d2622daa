package fn

import (
	"fmt"
	"io"

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
func RunFiles(paths []string, stdin io.Reader, config *yaml.Node, out io.Writer, opts RunOptions) (int, error) {
	docs, found, err := readFiles(paths, stdin)
	if err != nil {
		return 1, err
	}
	rl := krm.NewList(docs, config, decodeItem)
	r := &report{lines: true}
	r.extend(found)
	r.extend(skipped(rl))
	if _, err := process(rl, out, opts, r); err != nil {
		return 1, err
	}
	return r.exitCode(), nil
}

// readFiles reads the documents of every file under paths, in order; a
// syntax error is a diagnostic and the file's documents before it count.
func readFiles(paths []string, stdin io.Reader) ([]krm.Doc, diag.List, error) {
	var docs []krm.Doc
	var found diag.List
	for _, p := range paths {
		files := []string{p}
		if p != StdinPath {
			var err error
			if files, err = objects.CollectFiles([]string{p}); err != nil {
				return nil, nil, err
			}
		}
		for _, f := range files {
			data, err := readArg(f, stdin)
			if err != nil {
				return nil, nil, err
			}
			name := f
			if f == StdinPath {
				name = "stdin"
			}
			ds, bad := objects.ReadDocuments(data, name)
			for _, d := range ds {
				if d.Node.Kind != yaml.MappingNode {
					// Not an object: it cannot be an item of the output list.
					o := objects.Origin{File: name, Index: d.Index, Item: -1, Node: d.Node}
					found = append(found, objects.OtherNote(objects.Decode(d.Node), o))
					continue
				}
				docs = append(docs, krm.Doc{Node: d.Node, File: name, Index: d.Index})
			}
			if bad != nil {
				found = append(found, *bad)
			}
		}
	}
	return docs, found, nil
}

func readArg(f string, stdin io.Reader) ([]byte, error) {
	if f != StdinPath {
		return objects.ReadFile(f)
	}
	data, err := krm.ReadInput(stdin, 0)
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	return data, nil
}

// skipped notes the items that are objects nfd-fn does not read; they pass
// through untouched. (Items that are not objects at all are errors, from
// objects.Set.Add.)
func skipped(rl *krm.ResourceList) diag.List {
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
			if d.nodes != nil {
				origin.Node = d.nodes[i]
			}
			out = append(out, objects.OtherNote(o, origin))
		}
	}
	return out
}
