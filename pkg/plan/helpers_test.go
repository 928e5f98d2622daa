package plan

import (
	"bytes"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// fixture is the stale-labels example: Nodes with NFD labels from older
// rules, base and head rules, and workloads (helm output among them).
const fixture = "../../testdata/plan/stale-labels"

// fixtureInput reads the fixture from inside its directory, so that file
// names in the output are the ones a user sees. base is the --base path,
// "" for none.
func fixtureInput(t testing.TB, base string) Input {
	t.Helper()
	t.Chdir(fixture)
	opts := master.DefaultOptions()
	opts.EnableTaints = true
	in := Input{Head: &objects.Set{}, Options: opts}
	in.Problems = readSet(t, in.Head, "snapshot.yaml", "rules")
	if base != "" {
		in.Base = &objects.Set{}
		in.Problems = append(in.Problems, BaseSide(readSet(t, in.Base, base))...)
	}
	ws, ds := readWorkloads(t, "workloads")
	in.Workloads, in.Problems = ws, append(in.Problems, ds...)
	return in
}

// renderings are the plan's three forms, by --output name.
var renderings = []struct {
	name  string
	write func(*bytes.Buffer, *Plan) error
}{
	{"text", func(b *bytes.Buffer, p *Plan) error { return WriteText(b, p, TextOptions{}) }},
	{"markdown", func(b *bytes.Buffer, p *Plan) error { return WriteMarkdown(b, p) }},
	{"json", func(b *bytes.Buffer, p *Plan) error { return WriteJSON(b, p) }},
}

func render(t testing.TB, p *Plan, write func(*bytes.Buffer, *Plan) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// eachFile reads the files under paths, sorted, a file at a time (nfd-fn
// plan reads them through internal/inputs).
func eachFile(t testing.TB, paths []string, read func(data []byte, file string)) {
	t.Helper()
	files, err := objects.CollectFiles(paths)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := objects.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		read(data, f)
	}
}

// readSet reads the objects in the files under paths into set.
func readSet(t testing.TB, set *objects.Set, paths ...string) diag.List {
	var ds diag.List
	eachFile(t, paths, func(data []byte, file string) { ds = append(ds, testkit.ReadText(set, data, file, false)...) })
	return ds
}

// readWorkloads reads the workloads in the files under paths.
func readWorkloads(t testing.TB, paths ...string) ([]*workload.Workload, diag.List) {
	var ws []*workload.Workload
	var ds diag.List
	eachFile(t, paths, func(data []byte, file string) {
		more, found := workloadsIn(data, file)
		ws, ds = append(ws, more...), append(ds, found...)
	})
	return ws, ds
}

// workloadsIn reads the workloads of one file's text.
func workloadsIn(data []byte, file string) ([]*workload.Workload, diag.List) {
	docs, bad := objects.ReadDocuments(data, file)
	in := make([]workload.Doc, len(docs))
	for i, d := range docs {
		in[i] = workload.Doc{Node: d.Node, Pos: diag.Position{File: file, Index: d.Index, Line: d.Node.Line, Column: d.Node.Column}}
	}
	ws, ds := workload.FromFile(file, in)
	if bad != nil {
		ds = append(ds, *bad)
	}
	return ws, ds
}
