package engine

import (
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// Group is a compiled NodeFeatureGroup.
type Group struct {
	ref   ObjectRef
	rules []*rule
	// backrefs: the release feeds group rules' vars back into
	// rule.matched (release.GroupBackrefs).
	backrefs bool
}

// Ref names the group.
func (g *Group) Ref() ObjectRef { return g.ref }

// CompileGroup validates and compiles a NodeFeatureGroup as nfd-master
// v0.19.0 runs it (CompileGroupAs release.Default()).
func CompileGroup(obj *api.NodeFeatureGroup) (*Group, []Diagnostic) {
	return CompileGroupAs(release.Default(), obj)
}

// CompileGroupAs is CompileGroup for the nfd-master of release rel.
func CompileGroupAs(rel release.Release, obj *api.NodeFeatureGroup) (*Group, []Diagnostic) {
	g := &Group{ref: ObjectRef{Kind: api.KindNodeFeatureGroup, Namespace: obj.Metadata.Namespace, Name: obj.Metadata.Name},
		backrefs: rel.Has(release.GroupBackrefs)}
	env := &lazyEnv{rel: rel}
	var diags []Diagnostic
	for i := range obj.Spec.Rules {
		gr := &obj.Spec.Rules[i]
		src := &api.Rule{Name: gr.Name, Vars: gr.Vars, VarsTemplate: gr.VarsTemplate,
			MatchFeatures: gr.MatchFeatures, MatchAny: gr.MatchAny}
		r, d := compileRule(src, g.ref, indexField("spec.featureGroupRules", i), env)
		g.rules = append(g.rules, r)
		diags = append(diags, d...)
	}
	return g, diags
}

// Matches reports whether a node with features f belongs to the group: any
// group rule must match. From v0.18 group rules feed their vars (only)
// back into rule.matched for later group rules; f itself is not modified.
// Before, they feed nothing back, and rule.matched does not exist for
// them.
func (g *Group) Matches(f *api.Features) (bool, []*EvalError) {
	matched, errs := g.Match(f)
	return len(matched) > 0, errs
}

// Match is Matches naming the group rules that matched (their Source),
// for coverage: the node is a member when any did.
func (g *Group) Match(f *api.Features) ([]Source, []*EvalError) {
	local := f
	if g.backrefs {
		local = withPrivateBackrefs(f)
	}
	var matched []Source
	var errs []*EvalError
	for _, r := range g.rules {
		out, ok, err := r.execute(local)
		if err != nil {
			errs = append(errs, evalError(g.ref, r, err))
			continue
		}
		if g.backrefs {
			insertBackrefs(local, out.Vars)
		}
		if ok {
			matched = append(matched, Source{Object: g.ref, Field: r.field, RuleName: r.name})
		}
	}
	return matched, errs
}

// withPrivateBackrefs returns a shallow copy of f whose rule.matched
// feature can be extended without touching f.
func withPrivateBackrefs(f *api.Features) *api.Features {
	attrs := make(map[string]api.AttributeFeatureSet, len(f.Attributes)+1)
	for k, v := range f.Attributes {
		attrs[k] = v
	}
	if br, ok := attrs[backrefFeature]; ok {
		elems := make(map[string]string, len(br.Elements))
		for k, v := range br.Elements {
			elems[k] = v
		}
		attrs[backrefFeature] = api.AttributeFeatureSet{Elements: elems}
	}
	return &api.Features{Flags: f.Flags, Attributes: attrs, Instances: f.Instances}
}
