package ruletest

import (
	"fmt"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// checkFindings checks the expected findings, then that nothing
// unexpected was found: no error (an input with an error fails its
// suite unless the error is expected) and, with only, no warning.
func checkFindings(s *Suite, found diag.List) []Case {
	var out []Case
	expected := make([]bool, len(found))
	for _, e := range s.Findings {
		name := "finding " + e.Check
		if e.Object != "" {
			name += " on " + e.Object
		}
		c := Case{File: s.File, Line: e.Line, Field: e.Field, Name: name}
		check, ok := diag.Lookup(e.Check)
		if !ok {
			c.Failure = fmt.Sprintf("finding %s: no such check (docs/checks.md lists them)", e.Check)
			out = append(out, c)
			continue
		}
		hit := false
		for i := range found {
			if e.matches(check, &found[i]) {
				hit, expected[i] = true, true
			}
		}
		if !hit {
			c.Failure = fmt.Sprintf("finding %s (%s)%s: %s", check.ID, check.Name, onObject(e.Object), e.missed(check, found))
		}
		out = append(out, c)
	}
	var extra []string
	for i, d := range found {
		if expected[i] || !(d.Severity == diag.Error || (s.Only && d.Severity == diag.Warning)) {
			continue
		}
		extra = append(extra, d.Text())
	}
	c := Case{File: s.File, Line: s.InputsLine, Field: s.InputsField, Name: "no unexpected errors"}
	if s.Only {
		c.Name = "no unexpected errors or warnings"
	}
	if len(extra) > 0 {
		c.Failure = fmt.Sprintf("inputs: %s not expected", diag.Plural(len(extra), "finding"))
		c.Detail = strings.Join(extra, "\n")
	}
	return append(out, c)
}

// matches reports whether d is the finding e expects.
func (e *FindingExpect) matches(check diag.Check, d *diag.Diagnostic) bool {
	if d.ID() != check.ID {
		return false
	}
	if e.Severity != "" && string(d.Severity) != e.Severity {
		return false
	}
	if e.Message != "" && !strings.Contains(d.Message, e.Message) {
		return false
	}
	return e.Object == "" || e.Object == objectText(d.Object)
}

// objectText is an object as a finding expectation names it:
// Kind/name or Kind/namespace/name.
func objectText(o diag.ObjectRef) string {
	if o.Namespace != "" {
		return o.Kind + "/" + o.Namespace + "/" + o.Name
	}
	return o.Kind + "/" + o.Name
}

func onObject(object string) string {
	if object == "" {
		return ""
	}
	return " on " + object
}

// missed says why no finding met e: the check fired on the object but at
// another severity or with another message (each such near miss named
// with its object and line), or where it did fire, if anywhere.
func (e *FindingExpect) missed(check diag.Check, found diag.List) string {
	var near []string
	for i := range found {
		d := &found[i]
		if d.ID() != check.ID || (e.Object != "" && e.Object != objectText(d.Object)) {
			continue
		}
		at := objectText(d.Object) + " at " + d.Pos.Where(d.Object)
		switch {
		case e.Severity != "" && string(d.Severity) != e.Severity:
			near = append(near, fmt.Sprintf("expected severity %s, got %s on %s", e.Severity, d.Severity, at))
		case e.Message != "" && !strings.Contains(d.Message, e.Message):
			near = append(near, fmt.Sprintf("expected a message containing %q, got %q on %s", e.Message, d.Message, at))
		}
	}
	if len(near) > 0 {
		return strings.Join(near, "; ")
	}
	return "expected, got " + foundOf(found, check)
}

// foundOf says where the check did fire, if anywhere.
func foundOf(found diag.List, check diag.Check) string {
	var on []string
	for _, d := range found {
		if d.ID() == check.ID {
			on = append(on, objectText(d.Object))
		}
	}
	if len(on) == 0 {
		return "not reported"
	}
	return "reported on " + strings.Join(on, ", ")
}
