package master

import (
	"fmt"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// renderGroups evaluates every NodeFeatureGroup the way nfd-master does:
// on a fresh merge of each node's NodeFeatures (so rule.matched written by
// NodeFeatureRules is not visible, only vars of the group's own earlier
// rules), skipping nodes with no NodeFeature, and recording each member
// by the node name its system.name feature reports ("" when it has none,
// as nfd-master does).
func (p *Pipeline) renderGroups(f *Fleet) {
	for i := range p.set.Groups {
		g := &p.set.Groups[i]
		if !g.Used() {
			continue
		}
		cg, diags := engine.CompileGroup(g.Obj)
		f.Diagnostics = append(f.Diagnostics, WithChecks(diags)...)
		gr := GroupResult{Group: g, Members: []string{}}
		seen := map[string]bool{}
		for n := range f.Nodes {
			node := &f.Nodes[n]
			if !p.HasNode(node.Name) {
				continue
			}
			ok, errs := cg.Matches(node.Features)
			node.GroupErrors = append(node.GroupErrors, errs...)
			if !ok {
				continue
			}
			name := memberName(node.Features)
			if name == "" {
				node.Problems = append(node.Problems, unnamedMember(cg.Ref()))
			}
			if !seen[name] {
				seen[name] = true
				gr.Members = append(gr.Members, name)
			}
		}
		f.Groups = append(f.Groups, gr)
	}
}

// memberName is the name nfd-master records for a member: the node name
// the system.name feature reports.
func memberName(f *api.Features) string {
	return f.Attributes["system.name"].Elements["nodename"]
}

func unnamedMember(ref engine.ObjectRef) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Check: "group-member-unnamed", Object: ref, Field: "status.nodes",
		Message: fmt.Sprintf("the node matches, but its NodeFeatures have no system.name nodename element, so nfd-master lists it with an empty name (%s)", "a known NFD quirk")}
}
