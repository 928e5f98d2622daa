// Package cireport holds the shapes CI systems read, each in one place:
// JUnit XML (GitLab, Jenkins, most CI test tabs) and GitHub Actions
// workflow commands (annotations on a pull request's files). nfd-fn test
// (pkg/ruletest) and nfd-fn validate write through it.
package cireport

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// JUnitSuites is a JUnit XML document: <testsuites> with its suites.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr,omitempty"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one <testsuite>.
type JUnitSuite struct {
	Name     string      `xml:"name,attr"`
	File     string      `xml:"file,attr,omitempty"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []JUnitCase `xml:"testcase"`
}

// JUnitCase is one <testcase>, with a <failure> or an <error> when it
// did not pass.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *JUnitProblem `xml:"failure,omitempty"`
	Error     *JUnitProblem `xml:"error,omitempty"`
}

// JUnitProblem is a failure or an error: the message in an attribute,
// the detail as the element's text.
type JUnitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// Add appends a suite, counting its tests, failures and errors into the
// document's totals.
func (d *JUnitSuites) Add(s JUnitSuite) {
	s.Tests, s.Failures, s.Errors = len(s.Cases), 0, 0
	for _, c := range s.Cases {
		if c.Failure != nil {
			s.Failures++
		}
		if c.Error != nil {
			s.Errors++
		}
	}
	d.Tests += s.Tests
	d.Failures += s.Failures
	d.Errors += s.Errors
	d.Suites = append(d.Suites, s)
}

// Write writes the document, indented, with the XML header.
func (d *JUnitSuites) Write(w io.Writer) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(d); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// Annotation is one GitHub Actions workflow command that annotates a
// file: ::error, ::warning or ::notice.
type Annotation struct {
	// Level is error, warning or notice.
	Level string
	File  string
	// Line and Column are 1-based; 0 leaves them out.
	Line, Column int
	Title        string
	Message      string
}

// String is the workflow command, escaped as the runner reads it: the
// message may span lines, the properties may hold commas and colons.
func (a Annotation) String() string {
	var props []string
	add := func(k, v string) {
		if v != "" {
			props = append(props, k+"="+escapeProperty(v))
		}
	}
	add("file", a.File)
	if a.Line > 0 {
		add("line", fmt.Sprint(a.Line))
	}
	if a.Column > 0 {
		add("col", fmt.Sprint(a.Column))
	}
	add("title", a.Title)
	cmd := "::" + a.Level
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + escapeData(a.Message)
}

// escapeData escapes a command's message as the Actions runner unescapes
// it (toolkit's escapeData).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value (toolkit's escapeProperty).
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
