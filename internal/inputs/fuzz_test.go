package inputs_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// FuzzReader feeds arbitrary file contents to the reader every mode reads
// its files with (Reader, on the file "-": cut into
// items, decoded lean or from a tree, strictly decoded, added to the set):
// it must never panic; every diagnostic's text must be one line without
// raw control characters; and no object whose name the API server would
// refuse may be used (its name could become a file path).
func FuzzReader(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &objects.Set{}
		r := inputs.NewReader(s)
		r.Stdin = inputs.NewStdin(bytes.NewReader(data))
		defer r.Stdin.Close()
		defer r.Close()
		ds, _, err := r.Read([]string{inputs.StdinPath}, true)
		if err != nil {
			t.Fatalf("reading a file of %d bytes: %v", len(data), err)
		}
		for i := range ds {
			if text := ds[i].Text(); strings.ContainsAny(text, "\n\r\x1b\u202e\u2066") {
				t.Fatalf("diagnostic text holds a raw control character: %q", text)
			}
		}
		checkUsedNames(t, s)
	})
}

// checkUsedNames fails when an object in use has a name (or a Node a
// name) that is neither valid nor safe (objects.SafeName).
func checkUsedNames(t *testing.T, s *objects.Set) {
	t.Helper()
	bad := func(kind, name string) {
		if why := objects.InvalidName(kind, name); why != "" && !objects.SafeName(name) {
			t.Fatalf("%s %q is used although its name is invalid: %s", kind, name, why)
		}
	}
	for _, o := range s.Rules {
		if o.Used() {
			bad("NodeFeatureRule", o.Obj.Metadata.Name)
		}
	}
	for _, o := range s.Features {
		if o.Used() {
			bad("NodeFeature", o.Obj.Metadata.Name)
		}
	}
	for _, o := range s.Groups {
		if o.Used() {
			bad("NodeFeatureGroup", o.Obj.Metadata.Name)
		}
	}
	for _, o := range s.Nodes {
		if o.Used() {
			bad("Node", o.Obj.Name)
		}
	}
	for _, o := range s.Namespaces {
		bad("Namespace", o.Obj.Name)
	}
}

// addSeeds seeds with the repository's rule files, exports and examples,
// the hostile inputs, and documents built around the cases of issue 17.
func addSeeds(f *testing.F) {
	testkit.SeedFiles(f, "../../testdata/validate/*/*.yaml", "../../testdata/cluster-export/*.yaml", "../../testdata/cluster-export/*/*.yaml",
		"../../testdata/explain/*/*.yaml", "../../testdata/hostile/*.yaml", "../../testdata/hostile/*.json")
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
}

var fuzzSeeds = []string{
	"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: nf, namespace: nfd, labels: {nfd.node.kubernetes.io/node-name: ../../../../tmp/x}}\nspec: {labels: {a: b}}\n",
	"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: \"r\\u202e\\x1b[2J\"}\nspec: {rules: [{name: \"x\\ny\", labels: {a: b}}]}\n",
	"apiVersion: v1\nkind: Node\nmetadata: {name: \"a\\0b\"}\n",
	"apiVersion: v1\nkind: Namespace\nmetadata: {name: a.b}\n",
	"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureGroup\nspec: {}\n",
	"just a scalar\n---\n[1, 2]\n---\napiVersion: v1\nkind: List\nitems: [x, {apiVersion: v1, kind: Node}]\n",
	"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: &m {name: r}\nspec:\n  rules:\n  - &r {name: a, labels: {a: b}, matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: In, value: [\"6\"]}}}]}\n  - *r\n",
	"a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n",
	`{"apiVersion":"nfd.k8s-sigs.io/v1alpha1","kind":"NodeFeatureRule","metadata":{"name":"` + strings.Repeat("a", 300) + `"}}`,
}
