package fn

import (
	"errors"
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// explainNode adds the info results the functionConfig's explainNode asks
// for (modes.Explain): one per rule, saying whether and why it matched on
// the node, and one listing the node's labels with their origins.
func explainNode(p *master.Pipeline, s config.Settings, r *report) {
	if s.ExplainNode == "" {
		return
	}
	e, err := modes.Explain(p, s.ExplainNode, s.ExplainRule)
	switch {
	case errors.Is(err, modes.ErrNoNode):
		r.add(diag.Warning, nil, "", fmt.Sprintf("explainNode: no NodeFeature for node %q in the input", s.ExplainNode))
		return
	case errors.Is(err, modes.ErrNoRule):
		r.add(diag.Warning, nil, "", fmt.Sprintf("explainRule: no rule named %q", s.ExplainRule))
	}
	r.extend(e.Diagnostics())
}
