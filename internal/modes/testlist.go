package modes

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// TestList is mode test over a ResourceList (kpt): the list's objects,
// read into set with the problems found, are the one input of every
// RuleTest among its items (their inputs, config and snapshot are for
// nfd-fn test on files); each failed expectation is an error on its
// RuleTest, at the expectation's field path and line, each suite ends with an info result saying how it fared.
// on[k] is what suite k's results are about: its RuleTest's object and place.
func TestList(set *objects.Set, s *config.Settings, found diag.List, wc *lint.WorkerConfig, suites []*ruletest.Suite, on []diag.Diagnostic) diag.List {
	r := &rendered{set: set}
	r.check(s, found, wc, func(diag.List) {})
	var out diag.List
	for k, suite := range suites {
		at := diag.Diagnostic{Object: on[k].Object, Pos: on[k].Pos}
		cases := ruletest.Check(suite, r.got())
		failed := 0
		for _, c := range cases {
			if !c.Failed() {
				continue
			}
			failed++
			d := at
			d.Severity, d.Message, d.Field, d.Pos.Line = diag.Error, c.Failure, c.Field, c.Line
			if c.Line > 0 {
				// A KRM result's file has no line: the message names it,
				// as nfd-fn test's file:line does.
				d.Message = fmt.Sprintf("line %d: %s", c.Line, d.Message)
			}
			if c.Detail != "" {
				d.Message += "\n" + c.Detail
			}
			out = append(out, d)
		}
		d := at
		d.Severity = diag.Info
		d.Message = fmt.Sprintf("RuleTest %s: %d of %s passed", suite.Name, len(cases)-failed, diag.Plural(len(cases), "expectation"))
		if suite.Snapshot != "" {
			d.Message += "; its snapshot is compared by nfd-fn test on files, not here"
		}
		out = append(out, d)
	}
	return out
}
