package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
)

// passThroughFiles are objects nfd-fn does not render, written in the
// forms YAML and JSON allow that a re-encoding could change: each must
// come out of render meaning what it meant (the same data, nulls, tags,
// aliases and numbers), whatever way it is written back.
var passThroughFiles = map[string]string{
	"flow-nulls.yaml":     `{apiVersion: v1, kind: ConfigMap, metadata: {name: flow-nulls}, data: {a: , b: ~, c: null, d: ""}}`,
	"mapping-key.yaml":    "{0}:",
	"block-nulls.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: block-nulls\ndata:\n  a:\n  b: ~\n",
	"anchors.yaml":        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: anchors\n  labels: &l {x: \"1\"}\n  annotations: *l\n",
	"merge-key.yaml":      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: merge}\nbase: &b {p: 1}\nderived: {<<: *b, q: 2}\n",
	"tags.yaml":           "apiVersion: v1\nkind: Secret\nmetadata: {name: tags}\ndata: {k: !!binary aGVsbG8=}\nextra: !custom {z: 1}\nwhen: 2001-12-14\n",
	"block-scalars.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: scalars}\ndata:\n  keep: |+\n    a\n\n  strip: >-\n    b\n    c\n",
	"odd-keys.yaml":       "{apiVersion: v1, kind: ConfigMap, metadata: {name: odd-keys}, data: {\"a: b\": x, '#c': y, 1: z, ? [l] : w}}",
	"numbers.json":        `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "numbers"}, "n": [123456789012345678901234567890, 1e400, -0, 0.1]}`,
	"multi.yaml":          "# lead\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\n...\n---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: two}, data: {e: }}\n",
	"metadata-alias.yaml": "x: &m {name: metadata-alias, labels: {a: b}}\napiVersion: v1\nkind: ConfigMap\nmetadata: *m\n",
	"explicit-tags.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: explicit-tags}\ndata: {a: !!str 123, b: !!str true, c: !!float 1}\n",
	"complex-key.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: complex-key}\nx:\n  ? - a\n    - b\n  : v\n",
	"bom.yaml":            "\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata: {name: bom}\ndata: {a: b}\n",
	"crlf.yaml":           "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: crlf}\r\ndata: {a: \"x\\r\\ny\"}\r\n",
	"json-escapes.json":   `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "json-escapes"}, "data": {"a": "\u00e9\u2028\ud83d\ude00<&>", "b": "\/"}}`,
	"unicode.yaml":        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: unicode}\ndata: {s: \"tab\\there \\u00e9 \\U0001F600\", t: 'it''s'}\n",
}

func TestOtherObjectsPassThroughWithTheirMeaning(t *testing.T) {
	items, out := renderFiles(t, passThroughFiles)
	got := map[string]*yaml.Node{}
	for i := range items {
		it := &items[i]
		file, index := takePlace(t, it)
		got[filepath.Base(file)+"#"+index] = it
	}
	for name, text := range passThroughFiles {
		for i, want := range documents(t, text) {
			key := name + "#" + strconv.Itoa(i)
			if g := got[key]; g == nil {
				t.Errorf("%s: document %d is not among the items", name, i)
			} else if why := differ(want, g, ""); why != "" {
				t.Errorf("%s: document %d changed meaning: %s\nin:\n%s\nout:\n%s", name, i, why, text, out)
			}
		}
	}
}

// jsonOnlyEscapes are the escapes of passThroughFiles that JSON has and
// yaml.v3 refuses, as the characters they stand for.
var jsonOnlyEscapes = strings.NewReplacer(`\ud83d\ude00`, `\U0001F600`, `\/`, `/`)

// documents are the mapping documents of text, as the API server's
// reader would see them, counted as kpt counts them.
func documents(t *testing.T, text string) []*yaml.Node {
	t.Helper()
	var out []*yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(jsonOnlyEscapes.Replace(text)))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if err.Error() != "EOF" {
				t.Fatal(err)
			}
			return out
		}
		if len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode {
			out = append(out, doc.Content[0])
		}
	}
}

// takePlace removes the path and index annotations render adds to an item
// (and metadata and annotations left empty by that) and returns them.
func takePlace(t *testing.T, it *yaml.Node) (file, index string) {
	t.Helper()
	md := valueOf(it, "metadata")
	ann := valueOf(md, "annotations")
	if ann == nil {
		t.Fatalf("an item without annotations")
	}
	var kept []*yaml.Node
	for i := 0; i+1 < len(ann.Content); i += 2 {
		switch ann.Content[i].Value {
		case kioutil.PathAnnotation, kioutil.LegacyPathAnnotation:
			file = ann.Content[i+1].Value
		case kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation:
			index = ann.Content[i+1].Value
		default:
			kept = append(kept, ann.Content[i], ann.Content[i+1])
		}
	}
	ann.Content = kept
	if len(kept) == 0 {
		drop(md, "annotations")
	}
	if len(md.Content) == 0 {
		drop(it, "metadata")
	}
	return file, index
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	for m != nil && m.Kind == yaml.AliasNode {
		m = m.Alias
	}
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func drop(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// differ says how b's data differs from a's ("" when it does not): the
// same kinds, tags and values, aliases followed, nulls however spelt,
// and numbers as written (JSON's pass-through keeps them to the byte).
func differ(a, b *yaml.Node, at string) string {
	for a.Kind == yaml.AliasNode {
		a = a.Alias
	}
	for b.Kind == yaml.AliasNode {
		b = b.Alias
	}
	switch {
	case a.Kind != b.Kind:
		return at + ": a different kind of node"
	case a.ShortTag() != b.ShortTag():
		return at + ": tag " + a.ShortTag() + " became " + b.ShortTag()
	case a.Kind == yaml.ScalarNode && a.ShortTag() != "!!null" && a.Value != b.Value:
		return at + ": " + strconv.Quote(a.Value) + " became " + strconv.Quote(b.Value)
	case len(a.Content) != len(b.Content):
		return at + ": a different number of entries"
	}
	for i := range a.Content {
		if why := differ(a.Content[i], b.Content[i], at+"/"+strconv.Itoa(i)); why != "" {
			return why
		}
	}
	return ""
}

// TestAliasedMetadataIsKeptWhenNfdFnAddsToIt: a Node whose labels are an
// alias of its annotations (labels: *common) keeps what the alias held
// when NFD's labels are added, and the anchored annotations get only
// their own additions.
func TestAliasedMetadataIsKeptWhenNfdFnAddsToIt(t *testing.T) {
	items, out := renderFiles(t, map[string]string{"all.yaml": `apiVersion: v1
kind: Node
metadata:
  name: n1
  annotations: &common {team: a}
  labels: *common
---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata:
  name: n1
  namespace: node-feature-discovery
  labels: {nfd.node.kubernetes.io/node-name: n1}
spec:
  labels: {x: "y"}
`})
	for i := range items {
		var node struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Labels      map[string]string `yaml:"labels"`
				Annotations map[string]string `yaml:"annotations"`
			} `yaml:"metadata"`
		}
		if items[i].Decode(&node) != nil || node.Kind != "Node" {
			continue
		}
		if node.Metadata.Labels["team"] != "a" || node.Metadata.Labels["feature.node.kubernetes.io/x"] != "y" {
			t.Errorf("the Node's labels are %v, want team=a kept beside NFD's x=y:\n%s", node.Metadata.Labels, out)
		}
		if _, ok := node.Metadata.Labels["nfd.node.kubernetes.io/feature-labels"]; ok || node.Metadata.Annotations["team"] != "a" {
			t.Errorf("labels %v and annotations %v: each keeps its own additions", node.Metadata.Labels, node.Metadata.Annotations)
		}
		return
	}
	t.Fatalf("no Node in the output:\n%s", out)
}
