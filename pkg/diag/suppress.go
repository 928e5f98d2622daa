package diag

import (
	"fmt"
	"strings"
)

// Suppression silences the diagnostics of one check, either everywhere
// in a run (Object nil) or on one object, optionally on one of its rules.
type Suppression struct {
	// Check is the check's ID (NFD020) or name (matches-no-node).
	Check string
	// Object, when set, limits the suppression to the diagnostics about
	// that object; Rule further to those about the rule of that name.
	Object *ObjectRef
	Rule   string
	// Source is where the suppression is written (the ignore annotation,
	// or the run's ignore setting), for the report of an unused one.
	Source Diagnostic
}

// ParseSuppressions reads a comma-separated list of CHECK or CHECK:rule
// entries (the nfd-fn.dev/ignore annotation and the ignore setting).
func ParseSuppressions(list string, object *ObjectRef, source Diagnostic) []Suppression {
	var out []Suppression
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		check, rule, _ := strings.Cut(entry, ":")
		out = append(out, Suppression{Check: strings.TrimSpace(check), Object: object, Rule: strings.TrimSpace(rule), Source: source})
	}
	return out
}

// covers reports whether the suppression silences d; ruleOf names the rule
// a diagnostic is about ("" when none).
func (s *Suppression) covers(d *Diagnostic, ruleOf func(*Diagnostic) string) bool {
	c, ok := Lookup(s.Check)
	if !ok || (d.Check != c.Name) {
		return false
	}
	if s.Object == nil {
		return true
	}
	if d.Object.Key() != s.Object.Key() {
		return false
	}
	return s.Rule == "" || (ruleOf != nil && ruleOf(d) == s.Rule)
}

// Suppress drops the diagnostics the suppressions cover and adds a
// warning for every suppression that silenced nothing (or names no known
// check), where it is written.
func Suppress(l List, sups []Suppression, ruleOf func(*Diagnostic) string) List {
	if len(sups) == 0 {
		return l
	}
	used := make([]bool, len(sups))
	out := l[:0:0]
	for i := range l {
		silenced := false
		for j := range sups {
			if sups[j].covers(&l[i], ruleOf) {
				used[j], silenced = true, true
			}
		}
		if !silenced {
			out = append(out, l[i])
		}
	}
	for j, s := range sups {
		if !used[j] {
			out = append(out, s.unused())
		}
	}
	return out
}

func (s *Suppression) unused() Diagnostic {
	d := s.Source
	d.Severity, d.Check = Warning, "unused-suppression"
	what := s.Check
	if s.Rule != "" {
		what += ":" + s.Rule
	}
	if _, ok := Lookup(s.Check); !ok {
		d.Message = fmt.Sprintf("suppression %q names no check nfd-fn has (docs/checks.md lists them)", what)
		return d
	}
	d.Message = fmt.Sprintf("suppression %q silences nothing: remove it", what)
	return d
}
