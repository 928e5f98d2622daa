package master

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/objects"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// compiledGroup is a NodeFeatureGroup in use, compiled.
type compiledGroup struct {
	group *objects.Object[*api.NodeFeatureGroup]
	cg    *engine.Group
	// kept says nfd-master never writes the group's status.
	kept bool
}

// compileGroups compiles the NodeFeatureGroups in use, in input order,
// adding their compile diagnostics to the fleet's.
func (p *Pipeline) compileGroups(f *Fleet) []compiledGroup {
	var out []compiledGroup
	for i := range p.set.Groups {
		g := &p.set.Groups[i]
		if !g.Used() {
			continue
		}
		cg, diags := engine.CompileGroupAs(p.opts.NFDRelease(), g.Obj)
		f.Diagnostics = append(f.Diagnostics, WithChecks(diags)...)
		out = append(out, compiledGroup{group: g, cg: cg, kept: p.opts.GroupStatusKept(g.Obj.Metadata.Namespace)})
	}
	return out
}

// groupMatch says whether a node is a member of a group, and the name
// it is listed under.
type groupMatch struct {
	member bool
	name   string
}

// matchGroups evaluates every group on one rendered node the way
// nfd-master does: on a fresh merge of the node's NodeFeatures (so
// rule.matched written by NodeFeatureRules is not visible, only vars of
// the group's own earlier rules), recording each member by the node name
// its system.name feature reports ("" when it has none, as nfd-master
// does). Nodes with no NodeFeature are not evaluated.
func matchGroups(groups []compiledGroup, node *NodeResult) []groupMatch {
	if len(groups) == 0 {
		return nil
	}
	out := make([]groupMatch, len(groups))
	for g, cg := range groups {
		matched, errs := cg.cg.Match(node.Features)
		node.GroupErrors = append(node.GroupErrors, errs...)
		if len(matched) == 0 {
			continue
		}
		node.GroupRules = append(node.GroupRules, matched...)
		name := memberName(node.Features)
		if name == "" {
			node.Problems = append(node.Problems, unnamedMember(cg.cg.Ref()))
		}
		out[g] = groupMatch{member: true, name: name}
	}
	return out
}

// groupResults lists each group's members in node order, each name once.
func groupResults(groups []compiledGroup, member [][]groupMatch) []GroupResult {
	var out []GroupResult
	for g, cg := range groups {
		gr := GroupResult{Group: cg.group, Members: []string{}, StatusKept: cg.kept}
		seen := map[string]bool{}
		for _, m := range member {
			if m == nil || !m[g].member || seen[m[g].name] {
				continue
			}
			seen[m[g].name] = true
			gr.Members = append(gr.Members, m[g].name)
		}
		out = append(out, gr)
	}
	return out
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
