package workload

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Document reads one document as a workload; ok is false when it is not
// of a workload kind.
func Document(n *yaml.Node, pos diag.Position) (w *Workload, problem *diag.Diagnostic, ok bool) {
	if n == nil || n.Kind != yaml.MappingNode || !IsWorkloadKind(ys.Scalar(n, "apiVersion"), ys.Scalar(n, "kind")) {
		return nil, nil, false
	}
	w, problem = FromDocument(n, pos)
	return w, problem, true
}

// Doc is one document of a file and where it starts.
type Doc struct {
	Node *yaml.Node
	Pos  diag.Position
}

// FromFile reads the workloads among the documents of one file, in
// order: a workload whose pod template cannot be read is a warning; the
// documents of other kinds are skipped, with one info diagnostic per kind
// (sorted) after the warnings.
func FromFile(file string, docs []Doc) ([]*Workload, diag.List) {
	var out []*Workload
	var ds diag.List
	skipped := map[string]int{}
	for _, d := range docs {
		w, problem, ok := Document(d.Node, d.Pos)
		switch {
		case !ok:
			skipped[kindOf(d.Node)]++
		case problem != nil:
			ds = append(ds, *problem)
		default:
			out = append(out, w)
		}
	}
	return out, append(ds, skippedNotes(file, skipped)...)
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
