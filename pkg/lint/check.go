package lint

import (
	"sort"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/render"
)

// Check runs the static checks and, when the input holds NodeFeatures,
// renders every node to run the fleet checks too. Findings come sorted by
// document and position.
func Check(in *Input) []Finding {
	findings := Static(in)
	if nodes := renderFleet(in); len(nodes) > 0 {
		findings = append(findings, Fleet(in, nodes)...)
	}
	Sort(findings)
	return findings
}

// renderFleet runs the rules on every node that has NodeFeatures.
func renderFleet(in *Input) []NodeOutcome {
	byNode := map[string][]render.NodeFeatureObject{}
	for _, nf := range in.Features {
		if nf.Rejected {
			continue
		}
		node := nf.Obj.Metadata.Labels[api.NodeNameLabel]
		if node == "" {
			continue
		}
		byNode[node] = append(byNode[node], render.NodeFeatureObject{Ref: featureRef(nf.Obj), Spec: &nf.Obj.Spec})
	}
	if len(byNode) == 0 {
		return nil
	}
	var rules []*api.NodeFeatureRule
	for _, o := range in.Rules {
		if !o.Rejected {
			rules = append(rules, o.Obj)
		}
	}
	rs, _ := engine.Compile(rules)
	r := render.NewRenderer(in.Options, rs)
	names := make([]string, 0, len(byNode))
	for n := range byNode {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]NodeOutcome, len(names))
	for i, n := range names {
		res := r.RenderNode(n, byNode[n], nil)
		out[i] = NodeOutcome{Name: n, Results: res.Rules}
	}
	return out
}

// Sort orders findings by file, document, line and column, then message,
// so output is stable.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := &fs[i], &fs[j]
		af, ai := docKey(a.Doc)
		bf, bi := docKey(b.Doc)
		switch {
		case af != bf:
			return af < bf
		case ai != bi:
			return ai < bi
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Column != b.Column:
			return a.Column < b.Column
		}
		return a.Message < b.Message
	})
}

func docKey(d *Document) (string, int) {
	if d == nil {
		return "", -1
	}
	return d.File, d.Index
}
