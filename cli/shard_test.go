package cli

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestShardsTogetherRenderTheWholeFleet renders the cluster export as N
// shards (--shard I/N), the way a CI matrix or an Indexed Job would, and
// checks that concatenating the shards' Nodes gives exactly the Nodes of
// one full run: every node in one shard only, rendered the same. It does
// so on stdin with the export's Node objects (patched in place) and
// without them (new Nodes, written as rendered), and over files.
func TestShardsTogetherRenderTheWholeFleet(t *testing.T) {
	snapshot := filepath.Join(exportDir, "snapshot.yaml")
	rules := filepath.Join(exportDir, "rules")
	config := filepath.Join(exportDir, "config.yaml")
	withNodes := resourceListFrom(t, config, snapshot, rules)
	inputs := map[string]struct {
		stdin string
		args  []string
	}{
		"stdin with Node objects":    {withNodes, nil},
		"stdin without Node objects": {withoutNodes(t, withNodes), nil},
		"files":                      {"", []string{"--config", config, snapshot, rules}},
	}
	for name, in := range inputs {
		full := renderedNodes(t, in.stdin, append([]string{"render"}, in.args...)...)
		if len(full) < 3 {
			t.Fatalf("%s: %d Nodes in the full run, want several", name, len(full))
		}
		for _, n := range []int{2, 3} {
			merged := map[string]renderedNode{}
			for i := range n {
				args := append([]string{"render", "--shard", fmt.Sprintf("%d/%d", i, n)}, in.args...)
				for node, r := range renderedNodes(t, in.stdin, args...) {
					if _, twice := merged[node]; twice {
						t.Errorf("%s, %d shards: Node %s is in two shards' outputs", name, n, node)
					}
					merged[node] = r
				}
			}
			if !reflect.DeepEqual(merged, full) {
				t.Errorf("%s, %d shards: the shards' Nodes differ from the full run's:\n got %v\nwant %v", name, n, merged, full)
			}
		}
	}
}

// withoutNodes is a ResourceList without its Node items.
func withoutNodes(t *testing.T, list string) string {
	t.Helper()
	var rl map[string]any
	if err := yaml.Unmarshal([]byte(list), &rl); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, it := range rl["items"].([]any) {
		if it.(map[string]any)["kind"] != "Node" {
			kept = append(kept, it)
		}
	}
	rl["items"] = kept
	b, err := yaml.Marshal(rl)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBadShardIsAUsageError checks --shard values that are not I/N with
// 0 <= I < N.
func TestBadShardIsAUsageError(t *testing.T) {
	for _, v := range []string{"4/4", "1", "x/2", "-1/2", "0/0"} {
		var out, errOut strings.Builder
		code := Main([]string{"render", "--shard", v}, strings.NewReader(""), &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), "--shard") {
			t.Errorf("--shard %s: exit %d, stderr %q; want 2 and a message naming --shard", v, code, errOut.String())
		}
	}
}
