package fastread

import (
	"encoding/json"
	"testing"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// BenchmarkDecodeNodeFeature decodes one fleet-sized NodeFeature item
// (testdata/fast/worker-node.yaml) with each candidate decoder:
//
//   - fast: decodeFast, the block-layout reader nfd-fn uses;
//   - yaml-tree-strict: yaml.v3 node tree, then the strict decoder (the
//     fallback, and what nfd-fn did before);
//   - yaml-typed: yaml.v3 straight into the struct (not strict: no field
//     paths, no refusal of numbers where strings belong);
//   - json: encoding/json on the object as compact JSON;
//   - fast-json: decodeFast on the same object as an item of kubectl get
//     -o json's List (indented, cut out of the list), the JSON reader;
//   - json-kubectl: encoding/json on that same text (not usable as it
//     is: see jsonReader);
//   - yaml-tree-strict-json: the general path on that text, what a JSON
//     item cost before the JSON reader.
func BenchmarkDecodeNodeFeature(b *testing.B) {
	raw := workerNode(b)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeFull(raw); !ok {
				b.Fatal("fell back")
			}
		}
	})
	b.Run("yaml-tree-strict", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if d, ok := slowDecode(raw); !ok || len(d.Errs) > 0 {
				b.Fatal("does not decode")
			}
		}
	})
	b.Run("yaml-typed", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			var items []yamlNodeFeature
			if err := yaml.Unmarshal(raw, &items); err != nil || len(items) != 1 {
				b.Fatal(err)
			}
		}
	})
	d, _ := decodeFull(raw)
	js, err := json.Marshal(d.Obj)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("json", func(b *testing.B) {
		b.SetBytes(int64(len(js)))
		b.ReportAllocs()
		for b.Loop() {
			var nf api.NodeFeature
			if err := json.Unmarshal(js, &nf); err != nil {
				b.Fatal(err)
			}
		}
	})
	item := []byte(kubectlItem(b, string(raw)))
	b.Run("fast-json", func(b *testing.B) {
		b.SetBytes(int64(len(item)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeFull(item); !ok {
				b.Fatal("fell back")
			}
		}
	})
	b.Run("json-kubectl", func(b *testing.B) {
		b.SetBytes(int64(len(item)))
		b.ReportAllocs()
		for b.Loop() {
			var nf api.NodeFeature
			if err := json.Unmarshal(item, &nf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml-tree-strict-json", func(b *testing.B) {
		b.SetBytes(int64(len(item)))
		b.ReportAllocs()
		for b.Loop() {
			if d, ok := slowDecode(item); !ok || len(d.Errs) > 0 {
				b.Fatal("does not decode")
			}
		}
	})
}

// BenchmarkDecodeLean decodes the fleet-sized NodeFeature as nfd-fn reads
// a fleet's items (DecodeLean), from block YAML and from kubectl's JSON.
func BenchmarkDecodeLean(b *testing.B) {
	raw := workerNode(b)
	for _, in := range []struct {
		name string
		raw  []byte
	}{{"block", raw}, {"json", []byte(kubectlItem(b, string(raw)))}} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.raw)))
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := DecodeLean(in.raw, nil, nil); !ok {
					b.Fatal("fell back")
				}
			}
		})
	}
}

// yamlNodeFeature is api.NodeFeature with the yaml tags yaml.v3 needs.
type yamlNodeFeature struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name      string            `yaml:"name"`
		Namespace string            `yaml:"namespace"`
		Labels    map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec struct {
		Features struct {
			Flags      map[string]struct{ Elements map[string]struct{} } `yaml:"flags"`
			Attributes map[string]struct{ Elements map[string]string }   `yaml:"attributes"`
			Instances  map[string]struct {
				Elements []struct{ Attributes map[string]string }
			} `yaml:"instances"`
		} `yaml:"features"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"spec"`
}
