package inputs

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// Workloads reads the workload items of a read list (mode plan); an item
// of a workload kind without a readable pod template is a warning.
func Workloads(rl *krm.ResourceList) ([]*workload.Workload, diag.List) {
	var out []*workload.Workload
	var problems diag.List
	for _, it := range rl.Items {
		d, ok := decoded(it)
		if !ok {
			continue
		}
		for i, o := range d.objects {
			if o.Class != objects.Other || !workload.IsWorkloadKind(o.Ref.APIVersion, o.Ref.Kind) {
				continue
			}
			pos := diag.Position{File: it.File, Index: it.Index}
			w, problem, ok := workload.Document(itemDocument(it, d, i), pos)
			switch {
			case !ok:
			case problem != nil:
				problem.Pos.Line, problem.Pos.Column = 0, 0
				problems = append(problems, *problem)
			default:
				out = append(out, w)
			}
		}
	}
	return out, problems
}

// DropWorkloadNotes drops the notes saying that workload objects were
// skipped (Skipped): mode plan reads them.
func DropWorkloadNotes(l diag.List) diag.List {
	out := l[:0]
	for _, d := range l {
		if d.Check != "other-kind" || !workload.IsWorkloadKind(d.Object.APIVersion, d.Object.Kind) {
			out = append(out, d)
		}
	}
	return out
}

// Workloads reads the workloads in the files under paths (plan
// --workloads; "-" is stdin, helm template's output piped in), through
// the same opening and cutting as every other file: multi-document YAML,
// JSON and v1 Lists. Objects of other kinds are skipped with one info
// diagnostic per kind and file; a workload whose pod template cannot be
// read is a warning, at its line. Only a file that cannot be read at all
// is an error.
func (fr *Reader) Workloads(paths []string) ([]*workload.Workload, diag.List, error) {
	names, err := argFiles(paths)
	if err != nil {
		return nil, nil, err
	}
	files, opened, err := openNamed(names, fr.Stdin)
	if err != nil {
		return nil, nil, err
	}
	fr.set.Own(opened)
	var ws []*workload.Workload
	var ds diag.List
	for _, f := range files {
		more, found, err := fr.fileWorkloads(f, opened.Release)
		if err != nil {
			return nil, nil, err
		}
		ws, ds = append(ws, more...), append(ds, found...)
	}
	return ws, ds, nil
}

// fileWorkloads reads the workloads of one file (workload.FromFile), and
// then the syntax error that ended it.
func (fr *Reader) fileWorkloads(f krm.File, release func([]byte)) ([]*workload.Workload, diag.List, error) {
	var docs []workload.Doc
	var bad diag.List
	rl, err := krm.ReadFiles([]krm.File{f}, nil, readOptions(keepTrees, nil, release), func(int) ([]krm.Doc, error) {
		if len(f.Data) > objects.MaxFileSize {
			return nil, fmt.Errorf("reading %s: %d bytes, more than the %d bytes nfd-fn parses whole from one file", f.Name, len(f.Data), objects.MaxFileSize)
		}
		ds, syntax := objects.ReadDocuments(f.Data, f.Name)
		var objs []krm.Doc
		for _, d := range ds {
			if d.Node.Kind != yaml.MappingNode {
				docs = append(docs, workload.Doc{Node: d.Node}) // not an object: noted as skipped
				continue
			}
			objs = append(objs, krm.Doc{Node: d.Node, File: f.Name, Index: d.Index})
		}
		if syntax != nil {
			bad = append(bad, *syntax)
		}
		return objs, nil
	})
	if err != nil {
		return nil, nil, err
	}
	var ds diag.List
	eachDecoded(rl, &ds, func(it *krm.Item, d *decodedItem) {
		for i := range d.objects {
			n := itemDocument(it, d, i)
			pos := diag.Position{File: it.File, Index: it.Index}
			if n != nil {
				pos.Line, pos.Column = n.Line, n.Column
			}
			docs = append(docs, workload.Doc{Node: n, Pos: pos})
		}
	})
	ws, found := workload.FromFile(f.Name, docs)
	return ws, append(append(ds, found...), bad...), nil
}

// keepTrees keeps every item's tree: workloads are read from theirs.
func keepTrees(*krm.Item) bool { return true }
