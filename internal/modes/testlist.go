package modes

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// ListSuites are the RuleTests among a ResourceList's items (mode test
// under kpt), each with its item; a RuleTest that does not parse is an
// error diagnostic on its item.
func ListSuites(rl *krm.ResourceList) ([]*ruletest.Suite, []*krm.Item, diag.List) {
	var suites []*ruletest.Suite
	var items []*krm.Item
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
		suites, items = append(suites, s), append(items, it)
	}
	return suites, items, problems
}

// itemName names an item in messages: its file, else its place in the list.
func itemName(it *krm.Item) string {
	if it.File != "" {
		return it.File
	}
	return fmt.Sprintf("items[%d]", it.Pos)
}

// TestList is mode test over a ResourceList (kpt): the objects read into
// set with the problems found (the items the suites' inputs name, with
// their settings: SuiteListSource) are the render every suite given is
// checked against (a snapshot is for nfd-fn test on files); each failed
// expectation is an error on its RuleTest, at the expectation's field
// path and line, each suite ends with an info result saying how it fared.
func TestList(set *objects.Set, s *config.Settings, found diag.List, wc *lint.WorkerConfig, suites []*ruletest.Suite, items []*krm.Item) diag.List {
	r := &rendered{set: set}
	r.check(s, found, wc, func(diag.List) {})
	var out diag.List
	for k, suite := range suites {
		it := items[k]
		on := diag.Diagnostic{Object: diag.ObjectRef{APIVersion: it.APIVersion, Kind: it.Kind, Name: it.Name, Namespace: it.Namespace},
			Pos: diag.Position{File: it.File, Index: it.Index}}
		cases := ruletest.Check(suite, r.got())
		failed := 0
		for _, c := range cases {
			if !c.Failed() {
				continue
			}
			failed++
			d := on
			d.Severity, d.Message, d.Field = diag.Error, c.Failure, c.Field
			d.Pos.Line, d.Message = lineOf(it, c.Line, d.Message)
			if c.Detail != "" {
				d.Message += "\n" + c.Detail
			}
			out = append(out, d)
		}
		d := on
		d.Severity = diag.Info
		d.Message = fmt.Sprintf("RuleTest %s: %d of %s passed", suite.Name, len(cases)-failed, diag.Plural(len(cases), "expectation"))
		if suite.Snapshot != "" {
			d.Message += "; its snapshot is compared by nfd-fn test on files, not here"
		}
		out = append(out, d)
	}
	return out
}

// lineOf is the line of the RuleTest item it to report, and msg starting
// with it: a KRM result's file has no line, so the message names it, as
// nfd-fn test's file:line does. Only an item read from a file has the
// file's lines; kpt hands items over re-written, its annotations added,
// so there the field path alone places the expectation (line 0).
func lineOf(it *krm.Item, line int, msg string) (int, string) {
	if line <= 0 || !it.ReadFromFile() {
		return 0, msg
	}
	return line, fmt.Sprintf("line %d: %s", line, msg)
}
