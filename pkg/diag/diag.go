// Package diag is nfd-fn's one problem type. Every layer (decoding, the
// rule engine, the master logic, lint, Nova) reports a Diagnostic: what is
// wrong, how sure we are (Severity), which check found it, and where it
// lives (object, field path, file position, nodes). A list of them is an
// error, as in hcl. The package converts diagnostics to text and SARIF,
// each in exactly one place; the KRM result conversion lives in fn/ (the
// only layer that knows kyaml), so that pkg/ stays free of it.
package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Severity says how sure nfd-fn is that something is wrong; the values are
// the KRM result severities.
type Severity string

// The severities, as KRM result severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// ObjectRef names the object a diagnostic is about.
type ObjectRef struct {
	// APIVersion is optional; the KRM conversion fills it from the object
	// when it is known.
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
}

// String is "Kind namespace/name" or "Kind name".
func (o ObjectRef) String() string {
	if o.Namespace != "" {
		return o.Kind + " " + o.Namespace + "/" + o.Name
	}
	return o.Kind + " " + o.Name
}

// Key identifies the object independently of its apiVersion.
func (o ObjectRef) Key() ObjectRef {
	return ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}

// Position is where an object or a field sits in the input.
type Position struct {
	// File is the file path (from a file argument or the kpt path
	// annotation) and Index the object's index in it.
	File  string
	Index int
	// Line and Column are 1-based; 0 when unknown.
	Line, Column int
}

// Diagnostic is one problem.
type Diagnostic struct {
	Severity Severity
	// Check is the stable name of the check that found it, e.g.
	// "unknown-field"; empty for problems of no particular check.
	Check  string
	Object ObjectRef
	// Field is the path inside Object, e.g.
	// spec.rules[2].matchFeatures[0].matchExpressions.vendor.op.
	Field string
	// Pos is where the field (or the object) is; the zero value when the
	// producer does not know and the caller fills it in.
	Pos     Position
	Message string
	// Suggestion, when set, is a replacement for the field's value that
	// fixes the problem.
	Suggestion string
	// Nodes lists the nodes the problem was found on, sorted.
	Nodes []string
}

// String is the diagnostic in one line, without its position.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s", d.Severity, d.Describe())
}

// Describe is the diagnostic without position and severity:
// "Kind/name field: message", or "field: message" when there is no object.
func (d Diagnostic) Describe() string {
	what := d.Object.Kind
	if d.Object.Name != "" {
		what += "/" + d.Object.Name
	}
	if d.Field != "" && what != "" {
		what += " "
	}
	what += d.Field
	if what != "" {
		what += ": "
	}
	return what + d.Message
}

// List is a list of diagnostics; as an error it holds at least one.
type List []Diagnostic

// Error joins the diagnostics' texts, one per line.
func (l List) Error() string {
	lines := make([]string, len(l))
	for i := range l {
		lines[i] = l[i].Text()
	}
	return strings.Join(lines, "\n")
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for i := range l {
		if l[i].Severity == Error {
			return true
		}
	}
	return false
}

// Err returns the list as an error when it holds an error, else nil.
func (l List) Err() error {
	if l.HasErrors() {
		return l
	}
	return nil
}

// Counts tallies the diagnostics by severity.
func (l List) Counts() map[Severity]int {
	c := map[Severity]int{}
	for i := range l {
		c[l[i].Severity]++
	}
	return c
}

// SortByPosition orders diagnostics by file, index, line and column, then
// message, so that output is stable.
func (l List) SortByPosition() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := &l[i].Pos, &l[j].Pos
		switch {
		case a.File != b.File:
			return a.File < b.File
		case a.Index != b.Index:
			return a.Index < b.Index
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Column != b.Column:
			return a.Column < b.Column
		}
		return l[i].Message < l[j].Message
	})
}
