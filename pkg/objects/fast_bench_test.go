package objects

import (
	"encoding/json"
	"testing"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// BenchmarkDecodeNodeFeature decodes one fleet-sized NodeFeature item
// (testdata/fast/worker-node.yaml) with each candidate decoder:
//
//   - fast: DecodeFast, the block-layout reader nfd-fn uses;
//   - yaml-tree-strict: yaml.v3 node tree, then the strict decoder (the
//     fallback, and what nfd-fn did before);
//   - yaml-typed: yaml.v3 straight into the struct (not strict: no field
//     paths, no refusal of numbers where strings belong);
//   - json: encoding/json on the same object as JSON (kubectl -o json).
func BenchmarkDecodeNodeFeature(b *testing.B) {
	raw := workerNode(b)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := DecodeFast(raw); !ok {
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
	d, _ := DecodeFast(raw)
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
