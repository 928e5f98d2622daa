package modes

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// SuiteOn is what one suite's results are about under kpt: its RuleTest's
// object and place, and whether that place has the file's own lines.
type SuiteOn struct {
	// At is the RuleTest's object and place.
	At diag.Diagnostic
	// Lines is true when the RuleTest was read from its file; kpt hands
	// items over re-written, its annotations added, so there the field
	// path alone places an expectation.
	Lines bool
}

// TestList is mode test over a ResourceList (kpt): the objects read into
// set with the problems found (the items the suites' inputs name, with
// their settings) are the render every suite given is checked against (a
// snapshot is for nfd-fn test on files); each failed expectation is an
// error on its RuleTest, at the expectation's field path and line, and
// each suite ends with an info result saying how it fared. on[k] is what
// suite k's results are about.
func TestList(set *objects.Set, s *config.Settings, found diag.List, wc *lint.WorkerConfig, suites []*ruletest.Suite, on []SuiteOn) diag.List {
	r := &rendered{set: set}
	r.check(s, found, wc, func(diag.List) {})
	var out diag.List
	for k, suite := range suites {
		at := diag.Diagnostic{Object: on[k].At.Object, Pos: on[k].At.Pos}
		cases := ruletest.Check(suite, r.got())
		failed := 0
		for _, c := range cases {
			if !c.Failed() {
				continue
			}
			failed++
			d := at
			d.Severity, d.Message, d.Field = diag.Error, c.Failure, c.Field
			d.Pos.Line, d.Message = LineOf(on[k].Lines, c.Line, d.Message)
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

// LineOf is the line of a RuleTest's expectation to report, and msg
// starting with it: a KRM result's file has no line, so the message names
// it, as nfd-fn test's file:line does. Only a RuleTest whose lines are
// the file's (known) gets one; otherwise line is 0.
func LineOf(known bool, line int, msg string) (int, string) {
	if line <= 0 || !known {
		return 0, msg
	}
	return line, fmt.Sprintf("line %d: %s", line, msg)
}
