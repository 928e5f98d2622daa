package krm

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// wholeParse is what ReadFiles' caller does with a file it could not cut:
// parse it whole, a Doc per document.
func wholeParse(t *testing.T, files []File) func(int) ([]Doc, error) {
	return func(i int) ([]Doc, error) {
		dec := yaml.NewDecoder(bytes.NewReader(files[i].Data))
		var docs []Doc
		for k := 0; ; k++ {
			var n yaml.Node
			if err := dec.Decode(&n); err != nil {
				if err.Error() == "EOF" {
					return docs, nil
				}
				t.Fatal(err)
			}
			docs = append(docs, Doc{Node: n.Content[0], File: files[i].Name, Index: k})
		}
	}
}

func TestFileInFlowStyleThatIsNotJSONIsWrittenAsYAML(t *testing.T) {
	tests := []struct {
		name, data string
		json       bool
	}{
		{"a-mapping-used-as-a-key", "{0}:", false},
		{"flow-style-keys-unquoted", "{a: 1}", false},
		{"json-object", `{"a": 1}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := []File{{Name: "f.yaml", Data: []byte(tt.data)}}
			rl, err := ReadFiles(files, nil, ReadOptions{}, wholeParse(t, files))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := writeList(rl, &out, nil); err != nil {
				t.Fatalf("writing: %v", err)
			}
			if got := strings.HasPrefix(out.String(), "{"); got != tt.json {
				t.Errorf("written as JSON: %v, want %v:\n%s", got, tt.json, out.String())
			}
			var back yaml.Node
			if err := yaml.Unmarshal(out.Bytes(), &back); err != nil {
				t.Errorf("output does not parse: %v\n%s", err, out.String())
			}
		})
	}
}

func TestNullsInFlowCollectionsStayNull(t *testing.T) {
	for _, in := range []string{"{0}:\n", "a: {b: }\n", "a: [x, {c: }]\n", "{a: , b: ~}\n"} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(in), &n); err != nil {
			t.Fatal(err)
		}
		before, _ := Encode(&n) // must leave n as it was
		text, err := Encode(&n)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, text) {
			t.Errorf("%q: encoding changed the tree: %q then %q", in, before, text)
		}
		var back yaml.Node
		if err := yaml.Unmarshal(text, &back); err != nil {
			t.Fatalf("%q written as %q, which does not parse: %v", in, text, err)
		}
		if !sameData(&n, &back) {
			t.Errorf("%q written as %q, which reads differently", in, text)
		}
		if strings.Contains(string(text), "''") {
			t.Errorf("%q written as %q: a null became an empty string", in, text)
		}
	}
}

func TestItemsAreNamedByTheirPlaceWhenTheyHaveNoKind(t *testing.T) {
	tests := []struct {
		it   Item
		want string
	}{
		{Item{Kind: "ConfigMap", Name: "x"}, "ConfigMap x"},
		{Item{Kind: "ConfigMap", Name: "x", File: "a.yaml"}, "ConfigMap x (a.yaml)"},
		{Item{File: "a.yaml", Index: 2}, "the document at index 2 of a.yaml"},
		{Item{Pos: 3}, "item 3"},
	}
	for _, tt := range tests {
		if got := tt.it.describe(); got != tt.want {
			t.Errorf("describe() = %q, want %q", got, tt.want)
		}
	}
}

// sameData reports trees that hold the same data: the same kinds, tags
// and (nulls aside, however spelt) values, whatever the style.
func sameData(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || len(a.Content) != len(b.Content) {
		return false
	}
	if a.Kind == yaml.ScalarNode && a.ShortTag() != "!!null" && a.Value != b.Value {
		return false
	}
	for i := range a.Content {
		if !sameData(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

func TestEnsureMapCopiesAnAliasedMapping(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("metadata:\n  labels: &l {x: \"1\"}\n  annotations: *l\n"), &doc); err != nil {
		t.Fatal(err)
	}
	md := MapAt(doc.Content[0], "metadata")
	SetField(EnsureMap(md, "annotations"), "added", StrNode("v"))
	if got := StringMap(MapAt(md, "annotations")); got["x"] != "1" || got["added"] != "v" {
		t.Errorf("annotations %v, want what the alias held and the addition", got)
	}
	if got := StringMap(MapAt(md, "labels")); len(got) != 1 {
		t.Errorf("labels %v: the anchored mapping must not get the addition", got)
	}
}

// TestAnAliasOfAnotherItemsAnchorIsWrittenAsItsValue: an item written on
// its own (a list parsed whole) whose alias stands for a node another
// item anchors is written with that node's value, not a *name no reader
// can resolve (FuzzReadResourceList's find); an alias of its own anchor
// stays one.
func TestAnAliasOfAnotherItemsAnchorIsWrittenAsItsValue(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("- metadata: &md {name: shared}\n- metadata: *md\n  own: &o {a: 1}\n  again: *o\n"), &doc); err != nil {
		t.Fatal(err)
	}
	second := doc.Content[0].Content[1]
	text, err := Encode(second)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := yaml.Unmarshal(text, &back); err != nil {
		t.Fatalf("%s does not parse: %v", text, err)
	}
	if md, _ := back["metadata"].(map[string]any); md["name"] != "shared" || !strings.Contains(string(text), "*o") {
		t.Errorf("written as %s: want metadata's value and the item's own alias kept", text)
	}
}
