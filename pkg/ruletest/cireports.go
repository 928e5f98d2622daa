package ruletest

import (
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/cireport"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// WriteJUnit writes JUnit XML: a testsuite per RuleTest, a testcase per
// expectation (a failure element with the message, the detail as its
// text), an error for a suite that could not run, and a coverage suite
// when the minimum is not met.
func WriteJUnit(w io.Writer, r *Report) error {
	doc := &cireport.JUnitSuites{Name: "nfd-fn test"}
	for i := range r.Results {
		res := &r.Results[i]
		s := cireport.JUnitSuite{Name: res.Name, File: res.File}
		if res.Err != "" {
			s.Cases = append(s.Cases, cireport.JUnitCase{Name: "run", ClassName: res.Name, File: res.File, Line: res.Line,
				Error: &cireport.JUnitProblem{Message: res.Err, Type: "error"}})
		}
		for _, c := range res.Cases {
			jc := cireport.JUnitCase{Name: c.Name, ClassName: res.Name, File: c.File, Line: c.Line}
			if c.Failed() {
				jc.Failure = &cireport.JUnitProblem{Message: c.Failure, Type: "failure", Text: where(c.File, c.Line) + ": " + c.Failure + detailText(c.Detail)}
			}
			s.Cases = append(s.Cases, jc)
		}
		doc.Add(s)
	}
	if r.Coverage != nil && r.MinCoverage > 0 {
		jc := cireport.JUnitCase{Name: fmt.Sprintf("coverage at least %g%%", r.MinCoverage), ClassName: "coverage"}
		if r.coverageLow() {
			jc.Failure = &cireport.JUnitProblem{Message: coverageLine(r), Type: "failure"}
		}
		doc.Add(cireport.JUnitSuite{Name: "coverage", Cases: []cireport.JUnitCase{jc}})
	}
	return doc.Write(w)
}

func detailText(d string) string {
	if d == "" {
		return ""
	}
	return "\n" + d
}

func coverageLine(r *Report) string {
	return fmt.Sprintf("coverage %.1f%% of %d rules is below the minimum %g%%", r.Coverage.Percent(), r.Coverage.Total(), r.MinCoverage)
}

// WriteTAP writes TAP version 14: a test point per expectation, named
// suite: expectation, with a YAML block (message, at, detail) for a
// failure; a suite that could not run is a failing point.
func WriteTAP(w io.Writer, r *Report) error {
	var points []tapPoint
	for i := range r.Results {
		res := &r.Results[i]
		if res.Err != "" {
			points = append(points, tapPoint{name: res.Name + ": run", msg: res.Err, at: where(res.File, res.Line)})
		}
		for _, c := range res.Cases {
			points = append(points, tapPoint{ok: !c.Failed(), name: res.Name + ": " + c.Name, msg: c.Failure, at: where(c.File, c.Line), detail: c.Detail})
		}
	}
	if r.Coverage != nil && r.MinCoverage > 0 {
		p := tapPoint{ok: !r.coverageLow(), name: fmt.Sprintf("coverage at least %g%%", r.MinCoverage)}
		if !p.ok {
			p.msg = coverageLine(r)
		}
		points = append(points, p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "TAP version 14\n1..%d\n", len(points))
	for i, p := range points {
		p.write(&b, i+1)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tapPoint is one TAP test point.
type tapPoint struct {
	ok                    bool
	name, msg, at, detail string
}

// write writes the point numbered n; a failure gets a YAML block.
func (p tapPoint) write(b *strings.Builder, n int) {
	name := strings.ReplaceAll(p.name, "#", `\#`)
	if p.ok {
		fmt.Fprintf(b, "ok %d - %s\n", n, name)
		return
	}
	fmt.Fprintf(b, "not ok %d - %s\n  ---\n  message: %s\n", n, name, yamlQuote(p.msg))
	if p.at != "" {
		fmt.Fprintf(b, "  at: %s\n", yamlQuote(p.at))
	}
	if p.detail != "" {
		b.WriteString("  detail: |-\n")
		for _, l := range strings.Split(p.detail, "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
	b.WriteString("  ...\n")
}

// yamlQuote is s as a double-quoted YAML scalar (JSON's quoting is YAML's).
func yamlQuote(s string) string {
	return fmt.Sprintf("%q", s)
}

// WriteGitHub writes GitHub Actions workflow commands: an ::error at the
// test file and line of each failed expectation (its detail in the
// message), a ::warning per rule no test node matched when coverage is
// measured, and a notice with the summary.
func WriteGitHub(w io.Writer, r *Report) error {
	var b strings.Builder
	for i := range r.Results {
		res := &r.Results[i]
		if res.Err != "" {
			b.WriteString(cireport.Annotation{Level: "error", File: res.File, Line: res.Line, Title: "nfd-fn test: " + res.Name, Message: res.Err}.String() + "\n")
		}
		for _, c := range res.Cases {
			if c.Failed() {
				b.WriteString(cireport.Annotation{Level: "error", File: c.File, Line: c.Line, Title: "nfd-fn test: " + res.Name, Message: c.Failure + detailText(c.Detail)}.String() + "\n")
			}
		}
	}
	if c := r.Coverage; c != nil {
		for _, u := range c.Unmatched() {
			b.WriteString(cireport.Annotation{Level: "warning", File: u.Pos.File, Line: u.Pos.Line, Title: "nfd-fn test: coverage",
				Message: fmt.Sprintf("%s %s rule %q matched no test node", u.Object, u.Field, u.Name)}.String() + "\n")
		}
		if r.coverageLow() {
			b.WriteString(cireport.Annotation{Level: "error", Title: "nfd-fn test: coverage", Message: coverageLine(r)}.String() + "\n")
		}
	}
	cases, failed, _ := r.counts()
	b.WriteString(cireport.Annotation{Level: "notice", Title: "nfd-fn test", Message: fmt.Sprintf("%s, %s, %d failed", diag.Plural(len(r.Results), "suite"), diag.Plural(cases, "expectation"), failed)}.String() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
