package modes

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// renderFleet is a rule giving every node with a kernel major version a
// label, and nodes NodeFeatures for it.
func renderFleet(t *testing.T, s config.Settings, nodes int) *objects.Set {
	t.Helper()
	docs := []string{`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: kernel}
spec:
  rules:
  - name: kernel
    labels: {example.com/kernel: "yes"}
    matchFeatures:
    - feature: kernel.version
      matchExpressions: {major: {op: Exists}}
`}
	for i := range nodes {
		docs = append(docs, fmt.Sprintf(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata:
  name: node-%d
  namespace: node-feature-discovery
  labels: {nfd.node.kubernetes.io/node-name: node-%d}
spec:
  features:
    attributes:
      kernel.version: {elements: {major: "6"}}
`, i, i))
	}
	set := s.NewSet()
	for i, d := range docs {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(d), &n); err != nil {
			t.Fatal(err)
		}
		if ds := set.Add(objects.Decode(n.Content[0]), objects.Origin{File: "fleet.yaml", Index: i, Item: i, Node: n.Content[0]}); ds.HasErrors() {
			t.Fatalf("document %d: %v", i, ds)
		}
	}
	return set
}

// TestRenderDomainPart holds modes.Render at its own seam: what Finish
// adds for the settings (explainNode, the Nova provider config's nodes),
// a shard's other nodes, and the labels view, over the nodes the driver
// renders through the stream.
func TestRenderDomainPart(t *testing.T) {
	for _, tt := range []struct {
		name     string
		settings func(*config.Settings)
		// want is in a message of Finish's, "" for none.
		want string
		// nova is how many nodes Finish gives the Nova writer (-1: not called).
		nova int
		// shard says the nodes are cut to one shard.
		shard  bool
		labels bool
	}{
		{name: "defaults-add-nothing", settings: func(*config.Settings) {}, nova: -1},
		{name: "explain-of-a-missing-node-warns", settings: func(s *config.Settings) { s.ExplainNode = "nope" }, want: `explainNode: no NodeFeature for node "nope"`, nova: -1},
		{name: "explain-of-a-node-says-why", settings: func(s *config.Settings) { s.ExplainNode = "node-1" }, want: "example.com/kernel", nova: -1},
		{name: "nova-gets-every-node", settings: func(s *config.Settings) { s.Nova.Enabled = true }, nova: 6},
		{name: "shard-leaves-the-other-nodes", settings: func(s *config.Settings) { s.Shard = master.Shard{Index: 0, Count: 2} }, nova: -1, shard: true},
		{name: "labels-view-collects-each-node", settings: func(s *config.Settings) { s.NodeOutput = config.NodeOutputLabels }, nova: -1, labels: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, problems := config.Load(nil)
			if problems.HasErrors() {
				t.Fatal(problems)
			}
			tt.settings(&s)
			set := renderFleet(t, s, 6)
			sum := NewSummary()
			rd := Render(set, s, RenderOptions{Summary: sum})
			rendered := 0
			rd.Stream.Render(rd.Stream.All(), func(int, *master.NodeResult) { rendered++ })
			if got := rendered + len(rd.OtherShards); got != 6 {
				t.Errorf("%d nodes rendered and %d left to other shards, want 6 in all", rendered, len(rd.OtherShards))
			}
			if tt.shard != (len(rd.OtherShards) > 0) {
				t.Errorf("other shards' nodes %v, sharded %v", rd.OtherShards, tt.shard)
			}
			if tt.labels != (rd.Labels != nil) {
				t.Fatalf("labels view %v, want one %v", rd.Labels != nil, tt.labels)
			}
			if tt.labels && len(rd.Labels.Sorted()) != 6 {
				t.Errorf("labels view of %d nodes, want 6", len(rd.Labels.Sorted()))
			}
			nova := -1
			before := diag.Diagnostic{Severity: diag.Info, Message: "found before"}
			got := rd.Finish(diag.List{before}, func(nodes []master.NodeResult) diag.List {
				nova = len(nodes)
				return nil
			}, diag.Diagnostic{})
			if nova != tt.nova {
				t.Errorf("the Nova writer got %d nodes, want %d", nova, tt.nova)
			}
			if len(got) == 0 || got[0].Message != before.Message {
				t.Errorf("what was found before is not kept first: %v", got)
			}
			text := fmt.Sprint(got)
			if tt.want != "" && !strings.Contains(text, tt.want) {
				t.Errorf("Finish's results do not say %q:\n%s", tt.want, text)
			}
			if tt.want == "" && got.HasErrors() {
				t.Errorf("errors: %v", got)
			}
		})
	}
}
