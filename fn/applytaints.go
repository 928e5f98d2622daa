package fn

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// CheckApplyTaintsReplace is the name of the check (NFD315) that an
// apply-ready Node written without its Node object in the input sets the
// node's whole taint list.
const CheckApplyTaintsReplace = "apply-taints-replace"

// blindTaints counts the apply-ready Nodes written for nodes with no Node
// object in the input whose apply may replace the node's taints: their
// output sets spec.taints (an atomic list: applied, it is the node's whole
// list), or taints are enabled and NFD may have owned taints the render
// cannot see, whose removal would drop the list.
type blindTaints struct {
	count int
	first string
}

// note records n, the apply-ready Node of node name written with no Node
// object in the input.
func (b *blindTaints) note(n *yaml.Node, name string, s config.Settings) {
	if s.NodeOutput != config.NodeOutputApply || (!applyTaints(n) && !s.Options.EnableTaints) {
		return
	}
	if b.count == 0 {
		b.first = name
	}
	b.count++
}

// warning is the run's one NFD315 warning, or nil when no Node needs it.
func (b *blindTaints) warning() diag.List {
	if b.count == 0 {
		return nil
	}
	return diag.List{{Severity: diag.Warning, Check: CheckApplyTaintsReplace, Message: fmt.Sprintf(
		"%s (%s first) written with no Node object in the input: a Node's spec.taints is an atomic list for server-side apply, "+
			"so applying the output replaces the node's whole taint list (taints others set are dropped or the apply conflicts) "+
			"and cannot remove NFD taints the render does not see; export the Nodes with the NodeFeatures "+
			"(kubectl get nodes,nodefeatures -A -o yaml) so nfd-fn writes each node's whole list",
		diag.Plural(b.count, "apply-ready Node"), b.first)}}
}
