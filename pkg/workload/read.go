package workload

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Read reads the workloads in files and directories (directories walked
// for .yaml, .yml and .json; multi-document YAML such as helm template's
// output, JSON and v1 Lists). Objects of other kinds are skipped with one
// info diagnostic per kind and file; a workload whose pod template cannot
// be read is a warning. Only a file that cannot be read at all is an
// error.
func Read(paths []string) ([]*Workload, diag.List, error) {
	files, err := objects.CollectFiles(paths)
	if err != nil {
		return nil, nil, err
	}
	var out []*Workload
	var ds diag.List
	for _, f := range files {
		data, err := objects.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		ws, more := ReadBytes(data, f)
		out = append(out, ws...)
		ds = append(ds, more...)
	}
	return out, ds, nil
}

// ReadBytes reads the workloads in one file's text.
func ReadBytes(data []byte, file string) ([]*Workload, diag.List) {
	docs, bad := objects.ReadDocuments(data, file)
	var out []*Workload
	var ds diag.List
	skipped := map[string]int{}
	for _, d := range docs {
		pos := diag.Position{File: file, Index: d.Index, Line: d.Node.Line, Column: d.Node.Column}
		w, problem, ok := Document(d.Node, pos)
		switch {
		case !ok:
			skipped[kindOf(d.Node)]++
		case problem != nil:
			ds = append(ds, *problem)
		default:
			out = append(out, w)
		}
	}
	ds = append(ds, skippedNotes(file, skipped)...)
	if bad != nil {
		ds = append(ds, *bad)
	}
	return out, ds
}

// Document reads one document as a workload; ok is false when it is not
// of a workload kind.
func Document(n *yaml.Node, pos diag.Position) (w *Workload, problem *diag.Diagnostic, ok bool) {
	if n == nil || n.Kind != yaml.MappingNode || !IsWorkloadKind(ys.Scalar(n, "apiVersion"), ys.Scalar(n, "kind")) {
		return nil, nil, false
	}
	w, problem = FromDocument(n, pos)
	return w, problem, true
}

func kindOf(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.MappingNode {
		return "documents that are not objects"
	}
	apiVersion, kind := ys.Scalar(n, "apiVersion"), ys.Scalar(n, "kind")
	if kind == "" {
		return "documents without a kind"
	}
	return strings.TrimPrefix(apiVersion+" ", " ") + kind
}

// skippedNotes is one info diagnostic per skipped kind in a file.
func skippedNotes(file string, skipped map[string]int) diag.List {
	kinds := make([]string, 0, len(skipped))
	for k := range skipped {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var ds diag.List
	for _, k := range kinds {
		ds = append(ds, diag.Diagnostic{Severity: diag.Info, Check: "workload-kind", Pos: diag.Position{File: file},
			Message: fmt.Sprintf("%s: %s skipped, not a workload kind (%s)", k, objectCount(skipped[k]), strings.Join(Kinds(), ", "))})
	}
	return ds
}

func objectCount(n int) string {
	if n == 1 {
		return "1 object"
	}
	return fmt.Sprintf("%d objects", n)
}

// Kinds are the workload kinds, sorted.
func Kinds() []string {
	out := make([]string, 0, len(templatePaths))
	for k := range templatePaths {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
