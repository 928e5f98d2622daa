package fn

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/explain"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// explainNode adds the info results the functionConfig's explainNode asks
// for: one per rule, saying whether and why it matched on the node, and
// one listing the node's labels with their origins.
func explainNode(in inputs, renderer *master.Renderer, s Settings, r *results) {
	if s.ExplainNode == "" {
		return
	}
	objs, known := in.features[s.ExplainNode]
	if !known {
		r.add(engine.SeverityWarning, nil, "", fmt.Sprintf("explainNode: no NodeFeature for node %q in the input", s.ExplainNode))
		return
	}
	var existing *master.NodeState
	if it := in.nodes[s.ExplainNode]; it != nil {
		existing = nodeState(it.Node)
	}
	res, traces := renderer.ExplainNode(s.ExplainNode, objs, existing)
	shown := 0
	for i := range traces {
		if !explain.Selected(&traces[i], s.ExplainRule) {
			continue
		}
		shown++
		r.add(engine.SeverityInfo, r.find(traces[i].Source.Object), traces[i].Source.Field,
			fmt.Sprintf("explain node %s: %s", s.ExplainNode, explain.Rule(&traces[i])))
	}
	if shown == 0 && s.ExplainRule != "" {
		r.add(engine.SeverityWarning, nil, "", fmt.Sprintf("explainRule: no rule named %q", s.ExplainRule))
	}
	r.add(engine.SeverityInfo, &krm.Item{APIVersion: "v1", Kind: "Node", Name: s.ExplainNode}, "",
		fmt.Sprintf("explain node %s: %s", s.ExplainNode, explain.Labels(&res)))
}
