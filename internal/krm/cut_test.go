package krm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// repoManifests are the YAML files of this repository (examples, test
// data, golden outputs): the shapes people write and tools print.
func repoManifests(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "bin" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(p); d.Type().IsRegular() && (ext == ".yaml" || ext == ".yml") {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[p] = data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// referenceObjects reads a file the way files are read whole
// (objects.ReadDocuments): every document, v1 Lists expanded, null
// documents skipped, the limits of untrusted YAML applied.
func referenceObjects(data []byte) ([]Doc, error) {
	docs, bad := objects.ReadDocuments(data, "file")
	if bad != nil {
		return nil, errors.New(bad.Message)
	}
	out := make([]Doc, len(docs))
	for i, d := range docs {
		out[i] = Doc{Node: d.Node, Index: d.Index}
	}
	return out, nil
}

// checkCut holds cutFile to the reference: when it cuts a file and every
// object parses on its own (when ReadFiles trusts it), the objects are the
// decoder's, with the same index and every node at the same line and
// column; and each object's placed text reads as its annotated tree.
func checkCut(t *testing.T, name string, data []byte) (cut, placed, objects int) {
	// objects counts those placedText is for: not whole ResourceLists.
	t.Helper()
	objs, ok := cutFile(data, nil, nil)
	if !ok {
		return 0, 0, 0
	}
	var trees []*yaml.Node
	for _, o := range objs {
		if !o.doc && !entryOpensMapping(o.raw) {
			return 0, 0, 0
		}
		it := &Item{Raw: o.raw, Line: o.line, fromFile: true, doc: o.doc}
		n, err := it.ParseTree()
		if err != nil {
			return 0, 0, 0 // the file is parsed whole
		}
		trees = append(trees, n)
	}
	want, err := referenceObjects(data)
	if err != nil {
		for _, tree := range trees {
			if checkTree(tree, Limits{}.withDefaults()) != nil {
				return 0, 0, 0 // over a limit: ReadFiles parses the file whole too
			}
		}
		t.Fatalf("%s: cut into %d objects that parse, but the file does not parse: %v", name, len(objs), err)
	}
	if len(want) != len(objs) {
		t.Fatalf("%s: cut into %d objects, a decoder reads %d", name, len(objs), len(want))
	}
	for i, o := range objs {
		if o.index != want[i].Index {
			t.Fatalf("%s: object %d has index %d, a decoder says %d", name, i, o.index, want[i].Index)
		}
		if d := sameTree(trees[i], want[i].Node); d != "" {
			t.Fatalf("%s: object %d: %s\ncut:\n%s", name, i, d, o.raw)
		}
		if checkPlaced(t, name, o, want[i].Node) {
			placed++
		}
		if ScalarAt(want[i].Node, "kind") != "ResourceList" {
			objects++ // a ResourceList as an object is not what files hold
		}
	}
	return 1, placed, objects
}

// checkPlaced holds placedText to the tree edit; it reports whether the
// text edit was made.
func checkPlaced(t *testing.T, name string, o fileObject, tree *yaml.Node) bool {
	t.Helper()
	const file, index = "dir/a file: \"x\".yaml", 7
	ann := placeLines(file, index)
	text, ok := placedText(o.raw, o.doc, fileIndent, ann)
	if !ok {
		return false
	}
	if !strings.HasSuffix(string(text), "\n") {
		t.Fatalf("%s: the placed text does not end its last line, so the next item would join it:\n%q", name, text)
	}
	got, err := parseChunk(text)
	if err != nil {
		t.Fatalf("%s: the placed text does not parse: %v\n%s", name, err, text)
	}
	want := cloneTree(tree)
	annotatePlace(want, file, index)
	if a, b := encodeBare(t, got), encodeBare(t, want); a != b {
		t.Fatalf("%s: the placed text reads as\n%s\nthe annotated tree is\n%s\nplaced text:\n%s", name, a, b, text)
	}
	return true
}

// sameTree compares two trees: values, styles, tags and positions.
func sameTree(a, b *yaml.Node) string {
	if a.Kind != b.Kind || a.Value != b.Value || a.Tag != b.Tag || a.Style != b.Style || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("at line %d: %v %q differs from %v %q", b.Line, a.Kind, a.Value, b.Kind, b.Value)
	}
	if a.Line != b.Line || a.Column != b.Column {
		return fmt.Sprintf("%q at %d:%d, a decoder says %d:%d", b.Value, a.Line, a.Column, b.Line, b.Column)
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

func cloneTree(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = nil
	for _, k := range n.Content {
		c.Content = append(c.Content, cloneTree(k))
	}
	return &c
}

// encodeBare encodes n without its comments.
func encodeBare(t *testing.T, n *yaml.Node) string {
	t.Helper()
	c := cloneTree(n)
	var strip func(*yaml.Node)
	strip = func(n *yaml.Node) {
		n.HeadComment, n.LineComment, n.FootComment = "", "", ""
		for _, k := range n.Content {
			strip(k)
		}
	}
	strip(c)
	text, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

func TestCutFileReadsEveryRepositoryManifestAsADecoderDoes(t *testing.T) {
	files := repoManifests(t)
	cut, placed, objects := 0, 0, 0
	for name, data := range files {
		c, p, o := checkCut(t, name, data)
		cut, placed, objects = cut+c, placed+p, objects+o
	}
	t.Logf("%d of %d files cut; %d of %d objects placed in text", cut, len(files), placed, objects)
	// The fast path must be the common one, or it is not worth having.
	if cut*10 < len(files)*8 || placed*10 < objects*9 {
		t.Errorf("only %d of %d files cut and %d of %d objects placed in text", cut, len(files), placed, objects)
	}
}

func TestCutFileLeavesToTheParserWhatItCannotBeSureOf(t *testing.T) {
	for name, data := range map[string]string{
		"json-trailing-text":   `{"apiVersion": "v1", "kind": "ConfigMap"} x`,
		"json-key-escape":      `{"apiVersion": "v1", "kind": "ConfigMap", "a\u0062": 1}`,
		"json-empty-list":      `{"apiVersion": "v1", "kind": "List", "items": []}`,
		"json-items-not-array": `{"apiVersion": "v1", "kind": "List", "items": {}}`,
		"json-trailing-comma":  `{"apiVersion": "v1", "kind": "List", "items": [{"a": 1},]}`,
		"flow-root":            "{a: 1}\n",
		"scalar-doc":           "a: 1\n---\njust text\n",
		"directive":            "%YAML 1.2\n---\na: 1\n",
		"document-end":         "a: 1\n...\n",
		"marker-with-content":  "--- a: 1\n",
		"lone-cr":              "a: 1\rb: 2\n",
		"anchored-root":        "&x\na: 1\n",
		"list-in-flow":         "apiVersion: v1\nkind: List\nitems: []\n",
		"list-with-null-items": "apiVersion: v1\nkind: List\nitems:\n",
	} {
		if objs, ok := cutFile([]byte(data), nil, nil); ok {
			t.Errorf("%s: cut into %d objects, want the file parsed whole", name, len(objs))
		}
	}
}

func TestCutFileCountsDocumentsAsADecoderDoes(t *testing.T) {
	data := "# a comment before any marker\n---\na: 1\n---\n# only a comment\n---\n---\nb: 2\n---\napiVersion: v1\nkind: List\nitems:\n- c: 3\n- d: 4\n"
	objs, ok := cutFile([]byte(data), nil, nil)
	if !ok {
		t.Fatal("not cut")
	}
	var got []string
	for _, o := range objs {
		got = append(got, fmt.Sprintf("%d@%d", o.index, o.line))
	}
	if want := "0@3 3@8 4@13 4@14"; strings.Join(got, " ") != want {
		t.Errorf("objects at %s, want %s", strings.Join(got, " "), want)
	}
	checkCut(t, "counts", []byte(data))
}

func TestPlacedTextAddsTheAnnotationsWhereTheTreeWould(t *testing.T) {
	for name, data := range map[string]string{
		"annotations":    "apiVersion: v1\nkind: A\nmetadata:\n  name: x\n  annotations:\n    a: b\n    c: |\n      text\n\n      more\n  # trailing comment\nspec: {}\n",
		"no-annotations": "kind: A\nmetadata:\n    name: x\n    labels:\n      a: b\nspec:\n  x: 1\n",
		"no-metadata":    "kind: A\nspec:\n  x: 1\n# the end\n",
		"comment-first":  "# about A\n\nkind: A\nmetadata:\n  name: x\n",
		"list-entries":   "apiVersion: v1\nkind: List\nitems:\n    - kind: A\n      metadata:\n        name: x\n    - metadata:\n        name: y\n      kind: B\n",
	} {
		t.Run(name, func(t *testing.T) {
			objs, ok := cutFile([]byte(data), nil, nil)
			if !ok {
				t.Fatal("not cut")
			}
			trees, err := referenceObjects([]byte(data))
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range objs {
				if !checkPlaced(t, name, o, trees[i].Node) {
					t.Errorf("object %d was not placed in text", i)
				}
			}
		})
	}
}

func TestPlacedTextLeavesToTheTreeWhatItCannotBeSureOf(t *testing.T) {
	ann := []byte("k: v\n")
	for name, data := range map[string]string{
		"flow-metadata":    "kind: A\nmetadata: {name: x}\n",
		"flow-annotations": "kind: A\nmetadata:\n  annotations: {a: b}\n",
		"null-metadata":    "kind: A\nmetadata:\n",
		"quoted-metadata":  "kind: A\n\"metadata\":\n  name: x\n",
		"keep-chomping":    "kind: A\ndata:\n  x: |+\n    text\n\n",
		"tab":              "kind: A\ndata:\n  x: \"a\tb\"\n",
		"placed-already":   "kind: A\nmetadata:\n  annotations:\n    config.kubernetes.io/path: a.yaml\n",
		"anchored":         "kind: A\nmetadata: &m\n  name: x\n",
	} {
		if text, ok := placedText([]byte(data), true, fileIndent, ann); ok {
			t.Errorf("%s: placed in text as\n%s", name, text)
		}
	}
}

// FuzzCutFile is the differential test of the file cutter and the text
// placement against yaml.v3 (checkCut).
func FuzzCutFile(f *testing.F) {
	for _, data := range repoManifests(f) {
		if len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkCut(t, "input", data)
	})
}

// TestPlacedTextOnLargeObjects covers objects longer than the lines
// placedText reads first: metadata at the top, and at the bottom, past
// them, where it must read on.
func TestPlacedTextOnLargeObjects(t *testing.T) {
	var spec strings.Builder
	spec.WriteString("spec:\n  features:\n")
	for i := range 3000 {
		fmt.Fprintf(&spec, "    f%d: \"v%d\"\n", i, i)
	}
	meta := "metadata:\n  name: big\n  annotations:\n    a: b\n"
	for name, data := range map[string]string{
		"metadata-first":   "apiVersion: v1\nkind: A\n" + meta + spec.String(),
		"metadata-last":    "apiVersion: v1\nkind: A\n" + spec.String() + meta,
		"no-metadata":      "apiVersion: v1\nkind: A\n" + spec.String(),
		"as-a-list-item":   "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: A\n" + indent(meta+spec.String(), 2),
		"list-item-deeper": "apiVersion: v1\nkind: List\nitems:\n    - apiVersion: v1\n      kind: A\n" + indent(spec.String()+meta, 6),
	} {
		objs, ok := cutFile([]byte(data), nil, nil)
		if !ok {
			t.Fatalf("%s: not cut", name)
		}
		trees, err := referenceObjects([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range objs {
			if !checkPlaced(t, name, o, trees[i].Node) {
				t.Errorf("%s: object %d was not placed in text", name, i)
			}
		}
	}
}

func indent(text string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+pad) + "\n"
}

// placedText is the placed text of raw, as a list read from files writes
// an unchanged object: what the differential tests check.
func placedText(raw []byte, doc bool, indent int, ann []byte) ([]byte, bool) {
	p, ok := placeIn(raw, doc, indent, ann)
	if !ok {
		return nil, false
	}
	return p.write(nil), true
}
