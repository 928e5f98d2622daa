package fn

import (
	"io"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// renderList is mode render: the fleet pipeline over the list's objects,
// the rendered Nodes and NodeFeatureGroup status written back into the
// list, then lint's checks, explain and the Nova provider config.
func renderList(rl *krm.ResourceList, s config.Settings, r *report, sum *summary, progressTo io.Writer) {
	set := readSet(rl, s, r)
	p := master.Prepare(set, s.Options)
	if progressTo != nil {
		p.Progress = progress(progressTo)
	}
	fleet := p.RenderLean()
	sum.count(set, fleet)
	nodes := nodeObjects(set)
	for i := range fleet.Nodes {
		writeNode(rl, nodes[fleet.Nodes[i].Name], &fleet.Nodes[i], s)
	}
	for _, g := range fleet.Groups {
		if setGroupStatus(g.Group.Origin.Node, g.Members) {
			rl.Items[g.Group.Origin.Item].Changed = true
		}
	}
	findings := lint.Static(set, lint.Options{Master: s.Options})
	findings = append(findings, lint.Fleet(set, fleet, s.Options)...)
	set.Place(findings)
	findings.SortByPosition()
	r.extend(fleet.Diagnostics)
	r.extend(findings)
	explainNode(p, s, r)
	renderNova(rl, s, fleet.Nodes, r)
	r.extend(fleet.NodeDiagnostics)
	set.Place(r.list)
	r.list = set.Suppress(r.list, s.Ignore, ignoreSource(rl, s))
}

// validateList is mode validate: decoding, the rule engine's compile
// checks, lint's checks and, when the list holds NodeFeatures, the fleet
// checks; hand-written Nova provider configs in the package are checked
// against Nova's schema. Items pass through untouched.
func validateList(rl *krm.ResourceList, s config.Settings, r *report) {
	set := readSet(rl, s, r)
	_, findings := lint.Run(set, lint.Options{Master: s.Options, Outputs: true})
	r.extend(findings)
	findProviderConfigs(rl, r)
	set.Place(r.list)
	r.list = set.Suppress(r.list, s.Ignore, ignoreSource(rl, s))
}

// ignoreSource is where the run's suppressions are written: the
// functionConfig's ignore field.
func ignoreSource(rl *krm.ResourceList, s config.Settings) diag.Diagnostic {
	it := &krm.Item{APIVersion: "v1", Kind: "ConfigMap", Name: "functionConfig"}
	if rl.FunctionConfig != nil {
		it = &krm.Item{}
		it.SetNode(rl.FunctionConfig)
	}
	return diag.Diagnostic{Object: itemRef(it), Field: s.IgnoreField, Pos: diag.Position{File: it.File, Index: it.Index}}
}

// nodeObjects maps node names to the Node objects in use, built once so
// that writing n Nodes costs O(n), not a search of every Node per node.
func nodeObjects(set *objects.Set) map[string]*objects.Object[*objects.Node] {
	out := make(map[string]*objects.Object[*objects.Node], len(set.Nodes))
	for i := range set.Nodes {
		if o := &set.Nodes[i]; o.Used() {
			out[o.Obj.Name] = o
		}
	}
	return out
}
