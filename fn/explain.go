package fn

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/explain"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// explainNode adds the info results the functionConfig's explainNode asks
// for: one per rule, saying whether and why it matched on the node, and
// one listing the node's labels with their origins.
func explainNode(p *master.Pipeline, s config.Settings, r *report) {
	if s.ExplainNode == "" {
		return
	}
	res, traces, known := p.Explain(s.ExplainNode)
	if !known {
		r.add(diag.Warning, nil, "", fmt.Sprintf("explainNode: no NodeFeature for node %q in the input", s.ExplainNode))
		return
	}
	shown := 0
	for i := range traces {
		if !explain.Selected(&traces[i], s.ExplainRule) {
			continue
		}
		shown++
		r.extend(diag.List{{Severity: diag.Info, Check: "explain", Object: traces[i].Source.Object, Field: traces[i].Source.Field,
			Message: fmt.Sprintf("explain node %s: %s", s.ExplainNode, explain.Rule(&traces[i]))}})
	}
	if shown == 0 && s.ExplainRule != "" {
		r.add(diag.Warning, nil, "", fmt.Sprintf("explainRule: no rule named %q", s.ExplainRule))
	}
	r.extend(diag.List{{Severity: diag.Info, Check: "explain", Object: objects.NodeRef(s.ExplainNode),
		Message: fmt.Sprintf("explain node %s: %s", s.ExplainNode, explain.Labels(&res))}})
}
