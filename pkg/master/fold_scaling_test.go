package master

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/growth"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// problemFleet is n rendered nodes, each with a problem of its own, a
// problem every node shares, a rule failure every node shares and a
// failure of a rule Compile already reported (static): the shapes fold
// turns into results (issue 17 point 8: 60,000 nodes with one error each).
func problemFleet(n int) *Fleet {
	rule := diag.ObjectRef{Kind: "NodeFeatureRule", Name: "r"}
	static := &engine.EvalError{Object: rule, RuleName: "s", RuleField: "spec.rules[1]", Field: "spec.rules[1].labelsTemplate",
		Err: &engine.StaticError{Err: errors.New("template does not parse")}}
	shared := &engine.EvalError{Object: rule, RuleName: "t", RuleField: "spec.rules[0]", Field: "spec.rules[0].labelsTemplate", Err: errors.New("boom")}
	f := &Fleet{Nodes: make([]NodeResult, n), Diagnostics: diag.List{{Severity: diag.Warning, Object: rule, Field: "spec.rules[1].labelsTemplate", Message: "template does not parse"}}}
	for i := range f.Nodes {
		f.Nodes[i] = NodeResult{Name: fmt.Sprintf("node-%06d", i), RuleErrors: []*engine.EvalError{shared, static},
			Problems: diag.List{
				{Severity: diag.Error, Check: "output-label", Object: rule, Field: "spec.rules[2].labels", Message: fmt.Sprintf("label %d dropped", i)},
				{Severity: diag.Warning, Check: "output-label", Object: rule, Field: "spec.rules[3].labels", Message: "label dropped by policy"},
			}}
	}
	return f
}

// TestFoldIsLinearInNodes folds 15,000 and 60,000 nodes' problems and
// compares the work done (internal/growth: bytes and objects allocated).
func TestFoldIsLinearInNodes(t *testing.T) {
	fold := func(n int) func() {
		f := problemFleet(n)
		return func() {
			f.fold()
			// Each node's own message at one field of the rule folds
			// into one finding naming the nodes (mergeVariants).
			if len(f.NodeDiagnostics) != 3 || len(f.Diagnostics[0].Nodes) != n || len(f.NodeDiagnostics[1].Nodes) != n {
				t.Fatalf("fold of %d nodes: %d results, static failure on %d nodes", n, len(f.NodeDiagnostics), len(f.Diagnostics[0].Nodes))
			}
		}
	}
	growth.Check(t, "folding nodes' problems", 15_000, fold)
}

// fold folds every node of f.Nodes.
func (f *Fleet) fold() {
	fo := newFolder(f)
	for i := range f.Nodes {
		fo.add(&f.Nodes[i])
	}
	fo.finish()
}
