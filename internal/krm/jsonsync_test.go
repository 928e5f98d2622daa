package krm

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// jsonNode is a Node as kubectl get -o json prints it, trimmed.
const jsonNode = `{
    "apiVersion": "v1",
    "kind": "Node",
    "metadata": {
        "annotations": {
            "csi.volume.kubernetes.io/nodeid": "{\"ebs.csi.aws.com\":\"i-0\"}",
            "nfd.node.kubernetes.io/feature-labels": "cpu-cpuid.AVX"
        },
        "labels": {
            "feature.node.kubernetes.io/cpu-cpuid.AVX": "true",
            "kubernetes.io/hostname": "worker-1"
        },
        "name": "worker-1"
    },
    "spec": {},
    "status": {
        "allocatable": {
            "cpu": "95"
        },
        "capacity": {
            "cpu": "96"
        }
    }
}`

func TestSyncMapJSONIsTheTreeSync(t *testing.T) {
	for _, c := range []struct {
		name, raw, parent, key string
		want                   map[string]string
		ok                     bool
	}{
		{"unchanged", jsonNode, "metadata", "labels", map[string]string{"feature.node.kubernetes.io/cpu-cpuid.AVX": "true", "kubernetes.io/hostname": "worker-1"}, true},
		{"label-added-removed-changed", jsonNode, "metadata", "labels", map[string]string{"kubernetes.io/hostname": "w", "b": "1", "a": "<&>\u2028"}, true},
		{"escaped-value-kept", jsonNode, "metadata", "annotations", map[string]string{"csi.volume.kubernetes.io/nodeid": `{"ebs.csi.aws.com":"i-0"}`, "x": "y"}, true},
		{"emptied", jsonNode, "metadata", "labels", map[string]string{}, true},
		{"map-added", jsonNode, "status", "capacity", map[string]string{"cpu": "96", "example.com/dev": "2"}, true},
		{"missing-map-stays-missing", jsonNode, "spec", "taints", nil, true},
		{"missing-map-made", `{"metadata": {"name": "n"}}`, "metadata", "labels", map[string]string{"a": "b"}, true},
		{"into-empty-parent", `{"metadata": {}}`, "metadata", "labels", map[string]string{"a": "b"}, true},
		{"empty-map", `{"metadata": {"labels": {}}}`, "metadata", "labels", map[string]string{"a": "b"}, true},
		{"missing-parent", `{"kind": "Node"}`, "status", "capacity", map[string]string{"cpu": "1"}, false},
		{"number-value", `{"metadata": {"labels": {"a": 1}}}`, "metadata", "labels", map[string]string{"a": "1"}, false},
		{"labels-null", `{"metadata": {"labels": null}}`, "metadata", "labels", map[string]string{"a": "b"}, false},
		{"escaped-key-before", `{"meta\u0064ata": {}, "metadata": {"labels": {}}}`, "metadata", "labels", map[string]string{"a": "b"}, false},
		{"escaped-map-key", `{"metadata": {"labels": {"a\u0062": "c"}}}`, "metadata", "labels", map[string]string{"ab": "c", "d": "e"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if ok := checkSyncMapJSON(t, []byte(c.raw), c.parent, c.key, c.want); ok != c.ok {
				t.Errorf("edited in text: %v, want %v", ok, c.ok)
			}
		})
	}
}

// checkSyncMapJSON fails when SyncMapJSON's text reads otherwise than
// the tree synced as a Node's is (the map made only when there is
// something to put in it), or says changed when it is not. It reports
// whether SyncMapJSON edited the text.
func checkSyncMapJSON(t *testing.T, raw []byte, parent, key string, want map[string]string) bool {
	t.Helper()
	out, changed, ok := SyncMapJSON(raw, parent, key, want)
	if !ok {
		return false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("input does not parse: %v", err)
	}
	tree := DocContent(&doc)
	treeChanged := false
	if p := MapAt(tree, parent); p != nil && (MapAt(p, key) != nil || len(want) > 0) {
		treeChanged = SyncStringMap(EnsureMap(p, key), want)
	}
	if !json.Valid(out) {
		t.Fatalf("the edit is not JSON:\n%s", out)
	}
	var got yaml.Node
	if err := yaml.Unmarshal(out, &got); err != nil {
		t.Fatalf("the edit does not parse: %v\n%s", err, out)
	}
	if !sameValue(DocContent(&got), tree) {
		t.Fatalf("the edit reads otherwise than the tree\ninput:\n%s\nedit:\n%s", raw, out)
	}
	if changed != treeChanged {
		t.Fatalf("changed %v, the tree's %v\ninput:\n%s", changed, treeChanged, raw)
	}
	return true
}

// FuzzSyncMapJSON is the differential test of SyncMapJSON against the
// tree edit, on any JSON object and a want read from a second input.
func FuzzSyncMapJSON(f *testing.F) {
	f.Add([]byte(jsonNode), "a=b,kubernetes.io/hostname=worker-1")
	f.Add([]byte(`{"metadata": {"labels": {}}}`), "")
	f.Add([]byte(`{"metadata": {"labels": {"x": "\u00e9\n"}}}`), "x=é\n")
	f.Fuzz(func(t *testing.T, raw []byte, wants string) {
		if !json.Valid(raw) || !looksLikeJSON(raw) {
			return
		}
		var doc yaml.Node
		if yaml.Unmarshal(raw, &doc) != nil || DocContent(&doc) == nil || DocContent(&doc).Kind != yaml.MappingNode ||
			checkTree(DocContent(&doc), Limits{}.withDefaults()) != nil {
			return // not an item that is written: reported
		}
		want := map[string]string{}
		for _, kv := range strings.Split(wants, ",") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				want[k] = v
			}
		}
		checkSyncMapJSON(t, raw, "metadata", "labels", want)
	})
}
