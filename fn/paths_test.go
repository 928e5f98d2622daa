package fn

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"

	"github.com/nfd-fn/nfd-fn/internal/testkit"

	"sigs.k8s.io/yaml"
)

// renderedObjects is what a render writes that the write paths must agree
// on: each Node and NodeFeatureGroup by name (as JSON, so that layout does
// not count), and the results' messages in order.
type renderedObjects struct {
	Objects map[string]string
	Results []string
}

func renderedBy(t *testing.T, input []byte) renderedObjects {
	t.Helper()
	out, _ := testkit.Run(t, runWith(RunOptions{}), input)
	list := testkit.Read(t, out)
	got := renderedObjects{Objects: map[string]string{}}
	for _, it := range list.Items {
		kind, _ := it["kind"].(string)
		if kind != "Node" && kind != "NodeFeatureGroup" {
			continue
		}
		md, _ := it["metadata"].(map[string]any)
		if ann, ok := md["annotations"].(map[string]any); ok {
			for k := range ann {
				if k == kioutil.SeqIndentAnnotation {
					delete(ann, k) // how the list was laid out, not what was rendered
				}
			}
		}
		b, _ := json.Marshal(it)
		got.Objects[kind+"/"+md["name"].(string)] = string(b)
	}
	got.Results = list.Texts()
	sort.Strings(got.Results)
	return got
}

// TestEveryWritePathRendersTheSame renders every conformance input three
// ways: as the block list it is (the streaming path: Nodes in the input
// patched as they are written, new Nodes rendered as they are written),
// as JSON and as one flow-style document (both rendered whole, then
// written). The Nodes, the NodeFeatureGroups and the results must be the
// same: streaming is an implementation, not a behaviour.
func TestEveryWritePathRendersTheSame(t *testing.T) {
	random, _ := filepath.Glob("../testdata/oracle-random/case-*")
	wild, _ := filepath.Glob("../testdata/oracle-wild/case-*")
	dirs := append(random, wild...)
	if len(dirs) < 100 {
		t.Fatalf("found %d conformance cases", len(dirs))
	}
	sawNodes, sawGroups := false, false
	for _, dir := range dirs {
		input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		asJSON, err := yaml.YAMLToJSON(input)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		var doc any
		if err := json.Unmarshal(asJSON, &doc); err != nil {
			t.Fatal(err)
		}
		flow, _ := json.Marshal(doc) // JSON is flow-style YAML; with a leading comment, it is read as YAML
		flow = append([]byte("# flow style\n"), flow...)
		streamed := renderedBy(t, input)
		for name, in := range map[string][]byte{"json": asJSON, "flow-yaml": flow} {
			if got := renderedBy(t, in); !reflect.DeepEqual(got, streamed) {
				t.Errorf("%s: the %s render differs from the streamed one:\n%+v\nstreamed:\n%+v", dir, name, got, streamed)
			}
		}
		for k := range streamed.Objects {
			sawNodes = sawNodes || k[:5] == "Node/"
			sawGroups = sawGroups || len(k) > 17 && k[:17] == "NodeFeatureGroup/"
		}
	}
	if !sawNodes || !sawGroups {
		t.Fatalf("the cases rendered no Nodes (%v) or no NodeFeatureGroups (%v)", sawNodes, sawGroups)
	}
}
