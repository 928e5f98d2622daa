package ruletest

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Result is one suite's outcome: its cases, or the error that kept it
// from running (a test file that does not parse, an input that cannot be
// read).
type Result struct {
	// Name is the suite's name; File and Line where it is written.
	Name  string
	File  string
	Line  int
	Cases []Case
	Err   string
}

// Failed reports whether the suite did not run or a case failed.
func (r *Result) Failed() bool { return r.Err != "" || r.failures() > 0 }

func (r *Result) failures() int {
	n := 0
	for i := range r.Cases {
		if r.Cases[i].Failed() {
			n++
		}
	}
	return n
}

// Report is the outcome of a run of nfd-fn test.
type Report struct {
	Results []Result
	// Coverage, when measured (--coverage, --min-coverage), says which
	// rules no test node matched.
	Coverage *Coverage
	// MinCoverage, when above 0, is the percentage of rules the tests
	// must match for the run to pass.
	MinCoverage float64
}

// Failed reports whether the run fails: a suite failed, or coverage is
// below the minimum.
func (r *Report) Failed() bool {
	for i := range r.Results {
		if r.Results[i].Failed() {
			return true
		}
	}
	return r.coverageLow()
}

func (r *Report) coverageLow() bool {
	return r.MinCoverage > 0 && r.Coverage != nil && r.Coverage.Percent() < r.MinCoverage
}

// counts are the run's totals: expectations, failed ones and suites
// that did not run.
func (r *Report) counts() (cases, failed, broken int) {
	for i := range r.Results {
		cases += len(r.Results[i].Cases)
		failed += r.Results[i].failures()
		if r.Results[i].Err != "" {
			broken++
		}
	}
	return cases, failed, broken
}

// Writer is the writer of an --output format: text, json, junit, tap or
// github; ok is false for another name.
func Writer(format string) (write func(io.Writer, *Report) error, ok bool) {
	switch format {
	case "text":
		return WriteText, true
	case "json":
		return WriteJSON, true
	case "junit":
		return WriteJUnit, true
	case "tap":
		return WriteTAP, true
	case "github":
		return WriteGitHub, true
	}
	return nil, false
}

// Formats names the --output formats, for usage lines.
const Formats = "text, json, junit, tap or github"

// where is file:line, as editors and terminals link it.
func where(file string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// WriteText writes a line per suite (PASS or FAIL), each failure at its
// file:line with its detail indented below, the coverage and a summary.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for i := range r.Results {
		res := &r.Results[i]
		switch {
		case res.Err != "":
			fmt.Fprintf(&b, "ERROR %s (%s)\n  %s\n", res.Name, where(res.File, res.Line), diag.Escape(res.Err))
			continue
		case res.Failed():
			fmt.Fprintf(&b, "FAIL  %s (%s): %d of %s failed\n", res.Name, res.File, res.failures(), diag.Plural(len(res.Cases), "expectation"))
		default:
			fmt.Fprintf(&b, "PASS  %s (%s): %s\n", res.Name, res.File, diag.Plural(len(res.Cases), "expectation"))
		}
		for _, c := range res.Cases {
			if !c.Failed() {
				continue
			}
			fmt.Fprintf(&b, "  %s: %s\n", where(c.File, c.Line), diag.Escape(c.Failure))
			if c.Detail != "" {
				for _, l := range strings.Split(c.Detail, "\n") {
					fmt.Fprintf(&b, "      %s\n", diag.Escape(l))
				}
			}
		}
	}
	writeCoverageText(&b, r)
	cases, failed, broken := r.counts()
	verdict := "ok"
	if r.Failed() {
		verdict = "FAILED"
	}
	fmt.Fprintf(&b, "%s: %s, %s, %d failed", verdict, diag.Plural(len(r.Results), "suite"), diag.Plural(cases, "expectation"), failed)
	if broken > 0 {
		fmt.Fprintf(&b, ", %s could not run", diag.Plural(broken, "suite"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeCoverageText(b *strings.Builder, r *Report) {
	c := r.Coverage
	if c == nil {
		return
	}
	un := c.Unmatched()
	fmt.Fprintf(b, "coverage: %.1f%% of %s matched on a test node", c.Percent(), diag.Plural(c.Total(), "rule"))
	if r.MinCoverage > 0 {
		fmt.Fprintf(b, " (minimum %g%%)", r.MinCoverage)
	}
	b.WriteString("\n")
	for _, u := range un {
		fmt.Fprintf(b, "  %s: %s %s rule %q matched no test node\n", u.Pos.String(), u.Object, u.Field, u.Name)
	}
}

// jsonReport is the JSON form's shape.
type jsonReport struct {
	Passed   bool          `json:"passed"`
	Suites   []jsonSuite   `json:"suites"`
	Coverage *jsonCoverage `json:"coverage,omitempty"`
}

type jsonSuite struct {
	Name   string     `json:"name"`
	File   string     `json:"file"`
	Passed bool       `json:"passed"`
	Error  string     `json:"error,omitempty"`
	Cases  []jsonCase `json:"cases"`
}

type jsonCase struct {
	Name    string `json:"name"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Passed  bool   `json:"passed"`
	Failure string `json:"failure,omitempty"`
	Detail  string `json:"detail,omitempty"`
}

type jsonCoverage struct {
	Percent   float64    `json:"percent"`
	Rules     int        `json:"rules"`
	Minimum   float64    `json:"minimum,omitempty"`
	Unmatched []jsonRule `json:"unmatched"`
}

type jsonRule struct {
	Object string `json:"object"`
	Field  string `json:"field"`
	Rule   string `json:"rule"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
}

// WriteJSON writes the report as one JSON object: passed, the suites
// with every case, and the coverage when measured.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{Passed: !r.Failed(), Suites: []jsonSuite{}}
	for i := range r.Results {
		res := &r.Results[i]
		s := jsonSuite{Name: res.Name, File: res.File, Passed: !res.Failed(), Error: res.Err, Cases: []jsonCase{}}
		for _, c := range res.Cases {
			s.Cases = append(s.Cases, jsonCase{Name: c.Name, File: c.File, Line: c.Line, Passed: !c.Failed(), Failure: c.Failure, Detail: c.Detail})
		}
		out.Suites = append(out.Suites, s)
	}
	if c := r.Coverage; c != nil {
		jc := &jsonCoverage{Percent: c.Percent(), Rules: c.Total(), Minimum: r.MinCoverage, Unmatched: []jsonRule{}}
		for _, u := range c.Unmatched() {
			jc.Unmatched = append(jc.Unmatched, jsonRule{Object: objectText(u.Object), Field: u.Field, Rule: u.Name, File: u.Pos.File, Line: u.Pos.Line})
		}
		out.Coverage = jc
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
