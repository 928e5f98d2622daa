package fn

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// listSuites are the RuleTests among a ResourceList's items (mode test
// under kpt), each with its item; a RuleTest that does not parse is an
// error diagnostic on its item.
func listSuites(rl *krm.ResourceList) ([]*ruletest.Suite, []*krm.Item, diag.List) {
	var suites []*ruletest.Suite
	var items []*krm.Item
	var problems diag.List
	for _, it := range rl.Items {
		if it.Kind != ruletest.Kind {
			continue
		}
		tree, err := it.ParseTree()
		var s *ruletest.Suite
		if err == nil {
			s, err = ruletest.ParseNode(tree, itemName(it))
		}
		if err != nil {
			d := suiteOn(it).At
			d.Severity, d.Message = diag.Error, err.Error()
			problems = append(problems, d)
			continue
		}
		suites, items = append(suites, s), append(items, it)
	}
	return suites, items, problems
}

// suiteOn is what the results of the RuleTest item it are about
// (modes.TestList): its object and place, and whether its lines are the
// file's.
func suiteOn(it *krm.Item) modes.SuiteOn {
	ref := diag.ObjectRef{APIVersion: it.APIVersion, Kind: it.Kind, Name: it.Name, Namespace: it.Namespace}
	return modes.SuiteOn{At: diag.Diagnostic{Object: ref, Pos: diag.Position{File: it.File, Index: it.Index}}, Lines: it.ReadFromFile()}
}

// suitesOn is suiteOn of each item.
func suitesOn(items []*krm.Item) []modes.SuiteOn {
	on := make([]modes.SuiteOn, len(items))
	for i, it := range items {
		on[i] = suiteOn(it)
	}
	return on
}

// itemName names an item in messages: its file, else its place in the list.
func itemName(it *krm.Item) string {
	if it.File != "" {
		return it.File
	}
	return fmt.Sprintf("items[%d]", it.Pos)
}
