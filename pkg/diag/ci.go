package diag

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/cireport"
)

// WriteGitHub writes each diagnostic as a GitHub Actions workflow
// command (::error, ::warning, ::notice) at its file, line and column,
// so a workflow's run annotates the pull request's files.
func WriteGitHub(w io.Writer, l List) error {
	var b strings.Builder
	for i := range l {
		b.WriteString(l[i].Annotation().String() + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Annotation is d as a GitHub Actions workflow command (WriteGitHub).
func (d *Diagnostic) Annotation() cireport.Annotation {
	title := "nfd-fn"
	if c, ok := Lookup(d.Check); ok {
		title += " " + c.ID + " " + c.Name
	} else if d.Check != "" {
		title += " " + d.Check
	}
	level := map[Severity]string{Error: "error", Warning: "warning"}[d.Severity]
	if level == "" {
		level = "notice"
	}
	return cireport.Annotation{Level: level, File: d.Pos.File, Line: d.Pos.Line, Column: d.Pos.Column,
		Title: title, Message: Escape(d.Describe())}
}

// WriteJUnit writes the diagnostics as JUnit XML: a testsuite per file
// (findings with no file under "<input>"), a testcase per check that
// fired in it, failing when any of its findings is an error, the
// findings as the case's text (JUnit).
func WriteJUnit(w io.Writer, l List) error {
	return JUnit(l, "nfd-fn validate").Write(w)
}

// JUnit is the JUnit document WriteJUnit writes, named name, for a
// report that adds suites of its own (nfd-fn plan).
func JUnit(l List, name string) *cireport.JUnitSuites {
	type key struct{ file, check string }
	groups := map[key]List{}
	for _, d := range l {
		k := key{cmp.Or(d.Pos.File, "<input>"), d.ID()}
		if k.check == "" {
			k.check = cmp.Or(d.Check, "finding")
		}
		groups[k] = append(groups[k], d)
	}
	keys := make([]key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.check, b.check)) })
	doc := &cireport.JUnitSuites{Name: name}
	var suite *cireport.JUnitSuite
	for _, k := range keys {
		if suite == nil || suite.Name != k.file {
			if suite != nil {
				doc.Add(*suite)
			}
			suite = &cireport.JUnitSuite{Name: k.file, File: k.file}
		}
		suite.Cases = append(suite.Cases, junitCase(k.file, k.check, groups[k]))
	}
	if suite != nil {
		doc.Add(*suite)
	}
	return doc
}

// junitCase is one check's findings in one file.
func junitCase(file, check string, l List) cireport.JUnitCase {
	name := check
	if c, ok := Lookup(check); ok {
		name = c.ID + " " + c.Name
	}
	jc := cireport.JUnitCase{Name: name, ClassName: file, File: file, Line: l[0].Pos.Line}
	var lines []string
	for i := range l {
		lines = append(lines, l[i].Text())
	}
	if errs := l.Counts()[Error]; errs > 0 {
		jc.Failure = &cireport.JUnitProblem{Message: fmt.Sprintf("%s in %s", Plural(errs, "error"), file), Type: "error", Text: strings.Join(lines, "\n")}
	}
	return jc
}
