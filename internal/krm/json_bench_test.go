package krm

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"go.yaml.in/yaml/v3"
)

// jsonFleetList is a List of n worker-sized NodeFeatures (nodeFeatureList)
// as kubectl get -o json prints it: indented by four spaces.
func jsonFleetList(b *testing.B, n int) []byte {
	var list struct {
		Items []any `yaml:"items"`
	}
	if err := yaml.Unmarshal(nodeFeatureList(600), &list); err != nil {
		b.Fatal(err)
	}
	items := make([]any, n)
	for i := range items {
		items[i] = list.Items[0]
	}
	out, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}}, "", "    ")
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// jsonFleetItem is the text of the one item of jsonFleetList(b, 1), as
// splitJSON cuts it.
func jsonFleetItem(b *testing.B) []byte {
	sp, ok := splitJSON(jsonFleetList(b, 1), nil, nil)
	if !ok || len(sp.items) != 1 {
		b.Fatal("the list is not cut")
	}
	return sp.items[0].raw
}

// BenchmarkJSONList reads a JSON list of 20 worker-sized NodeFeatures
// (splitJSON), and reads and writes it back (writeJSONStream, the items
// re-indented by appendIndented).
func BenchmarkJSONList(b *testing.B) {
	data := jsonFleetList(b, 20)
	for _, write := range []bool{false, true} {
		name := "read"
		if write {
			name = "round-trip"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				rl, err := Read(data, ReadOptions{Decoder: DropTrees{}})
				if err == nil && write {
					err = writeList(rl, io.Discard, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJSONText writes a worker-sized NodeFeature's tree as indented
// JSON (jsonText, what a changed item of a JSON list costs).
func BenchmarkJSONText(b *testing.B) {
	var doc yaml.Node
	if err := yaml.Unmarshal(nodeFeatureList(600), &doc); err != nil {
		b.Fatal(err)
	}
	item := doc.Content[0].Content[len(doc.Content[0].Content)-1].Content[0]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonText(item, jsonItemPrefix); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSONMembers edits a worker-sized NodeFeature's JSON text as a
// list read from files and a Node's labels do: annotateJSON adds the
// place annotations, SyncMapJSON sets its labels.
func BenchmarkJSONMembers(b *testing.B) {
	raw := jsonFleetItem(b)
	b.Run("annotate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := annotateJSON(raw, "nodes/worker-0.json", 3); !ok {
				b.Fatal("not annotated")
			}
		}
	})
	want := map[string]string{"nfd.node.kubernetes.io/node-name": "worker-0", "feature.node.kubernetes.io/cpu-AVX": "true"}
	b.Run("sync-labels", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, ok := SyncMapJSON(raw, "metadata", "labels", want); !ok {
				b.Fatal("not synced")
			}
		}
	})
}

// BenchmarkSplitJSON cuts a JSON list of 20 worker-sized NodeFeatures
// into its items: splitJSON, and for comparison jsontext's Decoder
// reading each item as a value (what the cut would be with the
// tokenizer; see splitJSON for why it is not).
func BenchmarkSplitJSON(b *testing.B) {
	data := jsonFleetList(b, 20)
	b.Run("splitJSON", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if sp, ok := splitJSON(data, nil, nil); !ok || len(sp.items) != 20 {
				b.Fatal("the list is not cut")
			}
		}
	})
	b.Run("jsontext", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if n := jsontextItems(data); n != 20 {
				b.Fatalf("jsontext read %d items", n)
			}
		}
	})
}

// jsontextItems reads the top-level object data with a jsontext Decoder,
// each element of its items as a value, and returns their number.
func jsontextItems(data []byte) int {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if _, err := dec.ReadToken(); err != nil {
		return -1
	}
	n := 0
	for dec.PeekKind() == '"' {
		k, err := dec.ReadValue()
		if err != nil {
			return -1
		}
		if string(k) != `"items"` {
			if _, err := dec.ReadValue(); err != nil {
				return -1
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return -1
		}
		for dec.PeekKind() != ']' {
			if _, err := dec.ReadValue(); err != nil {
				return -1
			}
			n++
		}
		if _, err := dec.ReadToken(); err != nil {
			return -1
		}
	}
	return n
}

// BenchmarkReindentJSON re-indents a worker-sized NodeFeature's text as
// an unchanged item of a JSON list is written: appendIndented (checked
// canonical and indented in one pass), and for comparison the check
// then jsontext's formatter (see appendIndented for why it is not).
func BenchmarkReindentJSON(b *testing.B) {
	item := jsonFleetItem(b)
	b.Run("appendIndented", func(b *testing.B) {
		b.SetBytes(int64(len(item)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := appendIndented(make([]byte, 0, len(item)), item, jsonItemPrefix); !ok {
				b.Fatal("not canonical")
			}
		}
	})
	opts := slices.Concat(jsonWriteOptions, []jsontext.Options{jsontext.WithIndentPrefix(jsonItemPrefix)})
	b.Run("canonical-jsontext", func(b *testing.B) {
		b.SetBytes(int64(len(item)))
		b.ReportAllocs()
		for b.Loop() {
			if !canonicalJSON(item) {
				b.Fatal("not canonical")
			}
			if _, err := jsontext.AppendFormat(make([]byte, 0, len(item)), item, opts...); err != nil {
				b.Fatal(err)
			}
		}
	})
}
