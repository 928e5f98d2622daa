package fn

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// listSuites are the RuleTests among a ResourceList's items (mode test
// under kpt), each with what its results are about (its object and
// place: modes.TestList); a RuleTest that does not parse is an error
// diagnostic on its item.
func listSuites(rl *krm.ResourceList) ([]*ruletest.Suite, []diag.Diagnostic, diag.List) {
	var suites []*ruletest.Suite
	var on []diag.Diagnostic
	var problems diag.List
	for _, it := range rl.Items {
		if it.Kind != ruletest.Kind {
			continue
		}
		ref := diag.ObjectRef{APIVersion: it.APIVersion, Kind: it.Kind, Name: it.Name, Namespace: it.Namespace}
		tree, err := it.ParseTree()
		var s *ruletest.Suite
		if err == nil {
			s, err = ruletest.ParseNode(tree, itemName(it))
		}
		if err != nil {
			problems = append(problems, diag.Diagnostic{Severity: diag.Error, Object: ref, Pos: diag.Position{File: it.File, Index: it.Index}, Message: err.Error()})
			continue
		}
		suites, on = append(suites, s), append(on, diag.Diagnostic{Object: ref, Pos: diag.Position{File: it.File, Index: it.Index}})
	}
	return suites, on, problems
}

// itemName names an item in messages: its file, else its place in the list.
func itemName(it *krm.Item) string {
	if it.File != "" {
		return it.File
	}
	return fmt.Sprintf("items[%d]", it.Pos)
}
