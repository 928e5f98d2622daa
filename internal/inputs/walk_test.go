package inputs_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// The walking, ordering, positions and refusals of the one file reader
// (inputs.Reader and its decoder), as every mode reads files.

func nodeDoc(name string) string {
	return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + "}\n"
}

// readPaths reads the files under paths into a new set, as validate,
// explain and plan do; the files stay open until the test ends.
func readPaths(t *testing.T, paths []string, note bool) (*objects.Set, diag.List, int, error) {
	t.Helper()
	s := &objects.Set{}
	r := inputs.NewReader(s)
	t.Cleanup(func() { r.Close() })
	ds, n, err := r.Read(paths, note)
	if err != nil {
		return nil, nil, 0, err
	}
	return s, ds, n, nil
}

func TestReaderWalksNestedFoldersSkippingHiddenDirsAndNonManifests(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"a.yaml":              nodeDoc("a"),
		"sub/b.yml":           nodeDoc("b"),
		"sub/deeper/c.JSON":   `{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "c"}}`,
		"sub/README.md":       nodeDoc("readme"),
		"sub/notes.txt":       nodeDoc("txt"),
		".git/config.yaml":    nodeDoc("git"),
		"sub/.hidden/d.yaml":  nodeDoc("hidden"),
		"Kptfile":             "apiVersion: kpt.dev/v1\nkind: Kptfile\n",
		"sub/deeper/e.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n",
		"sub/deeper/z/f.yaml": nodeDoc("f"),
	})
	s, ds, n, err := readPaths(t, []string{dir}, false)
	if err != nil {
		t.Fatal(err)
	}
	// a.yaml, b.yml, c.JSON, e.yaml (a ConfigMap, read and skipped), f.yaml.
	if n != 5 {
		t.Errorf("files read = %d, want 5", n)
	}
	var got []string
	for _, o := range s.Nodes {
		rel, _ := filepath.Rel(dir, o.Origin.File)
		got = append(got, o.Obj.Name+"@"+filepath.ToSlash(rel))
	}
	want := []string{"a@a.yaml", "b@sub/b.yml", "c@sub/deeper/c.JSON", "f@sub/deeper/z/f.yaml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("nodes = %v, want %v", got, want)
	}
	if len(ds) != 0 {
		t.Errorf("diagnostics = %v, want none", texts(ds))
	}
}

func TestReaderReadsNamedFilesWhateverTheirExtensionOnce(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"nodes.txt": nodeDoc("t"),
		"x.yaml":    nodeDoc("x"),
	})
	x := filepath.Join(dir, "x.yaml")
	s, _, n, err := readPaths(t, []string{filepath.Join(dir, "nodes.txt"), x, dir}, false)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || len(s.Nodes) != 2 {
		t.Fatalf("read %d files, %d nodes; want 2 and 2 (x.yaml once)", n, len(s.Nodes))
	}
	if s.Nodes[0].Obj.Name != "t" || s.Nodes[1].Obj.Name != "x" {
		t.Errorf("nodes %q %q, want t x (files sorted)", s.Nodes[0].Obj.Name, s.Nodes[1].Obj.Name)
	}
}

func TestReaderGivesPositionsAndNotes(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"a.yaml": "apiVersion: v1\nkind: Service\nmetadata: {name: svc}\n---\n" +
			"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n  - nme: x\n",
	})
	_, ds, _, err := readPaths(t, []string{dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "a.yaml")
	want := []string{
		file + `:2:1: info: Service/svc kind: v1 Service "svc" is not an NFD kind: skipped [NFD023]`,
		// A set read without strictFieldValidation assumes fieldValidation=Warn.
		file + `:10:5: warning: NodeFeatureRule/r spec.rules[0].nme: unknown field "nme": did you mean "name"?; pruned under fieldValidation=Warn, client-go/Helm's default ` +
			`(Warning: unknown field "spec.rules[0].nme"), so nfd-master never sees it; kubectl apply (fieldValidation=Strict) refuses the object [NFD003]`,
	}
	if got := texts(ds); !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics =\n%q\nwant\n%q", got, want)
	}
}

func TestReaderErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"missing-path", []string{filepath.Join(dir, "nope.yaml")}, "no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, _, err := readPaths(t, tc.paths, false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
			if s != nil {
				t.Errorf("a failed read returned a set")
			}
		})
	}
}

func TestReaderRefusesAFIFOInsteadOfHangingAndNamesIt(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	type result struct {
		s   *objects.Set
		n   int
		err error
	}
	run := func(paths []string) (r result) {
		testkit.NoHang(t, fmt.Sprintf("Read(%v) on a FIFO", paths), func() {
			r.s, _, r.n, r.err = readPaths(t, paths, false)
		})
		return r
	}
	r := run([]string{fifo})
	if r.err == nil || r.err.Error() != "reading "+fifo+": not a regular file" {
		t.Errorf("named FIFO: err = %v, want not a regular file", r.err)
	}
	testkit.WriteFiles(t, dir, map[string]string{"a.yaml": nodeDoc("a")})
	// Inside a directory it is not opened either, and not skipped unsaid
	// (issue 34): the read fails naming it, as a file argument would.
	r = run([]string{dir})
	if r.err == nil || !strings.Contains(r.err.Error(), fifo+" (a FIFO, not a regular file)") {
		t.Errorf("FIFO inside a directory: err %v, %d files; want an error naming it", r.err, r.n)
	}
}
