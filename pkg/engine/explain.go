package engine

import (
	"fmt"
	"maps"
	"slices"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// RuleTrace says how one rule fared on one node and why.
type RuleTrace struct {
	Source  Source
	Matched bool
	// Err is the failure nfd-master would log; the rule then produces
	// nothing on the node.
	Err error
	// Output is what the rule produced when it matched.
	Output Output
	// Matchers are the rule's matchAny branches, then its matchFeatures.
	Matchers []MatcherTrace
}

// MatcherTrace is one matchFeatures list (of the rule or of a matchAny
// branch): all its terms must match.
type MatcherTrace struct {
	Field   string
	Matched bool
	Terms   []TermTrace
}

// TermTrace is one feature term.
type TermTrace struct {
	Field   string
	Feature string
	// Present is false when the node has no such feature at all, which
	// fails the term whatever its expressions say.
	Present bool
	Matched bool
	Err     error
	// Skipped is set for terms nfd-master does not evaluate because an
	// earlier term of the same list already failed.
	Skipped bool
	Exprs   []ExprTrace
}

// ExprTrace is one expression of a term (or its matchName) and the values
// it saw on the node.
type ExprTrace struct {
	Field string
	// Element is the element name, or "" for matchName.
	Element string
	Op      api.MatchOp
	Values  []string
	// Seen describes what the node has for the element: "absent",
	// "present" (a flag), `"value"`, or per-instance values.
	Seen []string
	// Near are the feature's element names closest to the values of a
	// matchName that matched nothing: the near misses.
	Near    []string
	Matched bool
	Err     error
}

// Explain runs every rule on f like Execute, back-references included,
// and returns a trace of every rule; f is modified in place as Execute
// does.
func (rs *RuleSet) Explain(f *api.Features) []RuleTrace {
	if f.Attributes == nil {
		f.Attributes = map[string]api.AttributeFeatureSet{}
	}
	var traces []RuleTrace
	for _, o := range rs.objects {
		for _, r := range o.rules {
			tr := RuleTrace{Source: Source{Object: o.ref, Field: r.field, RuleName: r.name}}
			for i, m := range r.matchAny {
				tr.Matchers = append(tr.Matchers, m.explain(f, indexField(r.field+".matchAny", i)+".matchFeatures"))
			}
			if len(r.matchFeatures) > 0 {
				tr.Matchers = append(tr.Matchers, r.matchFeatures.explain(f, r.field+".matchFeatures"))
			}
			out, matched, err := r.execute(f)
			if err != nil {
				tr.Err = evalError(o.ref, r, err)
			} else {
				insertBackrefs(f, out.Labels)
				insertBackrefs(f, out.Vars)
				tr.Matched, tr.Output = matched, out
			}
			traces = append(traces, tr)
		}
	}
	return traces
}

func (m matcher) explain(f *api.Features, field string) MatcherTrace {
	mt := MatcherTrace{Field: field, Matched: true}
	failed := false
	for _, t := range m {
		tt := t.explain(f)
		tt.Skipped = failed
		if !tt.Matched || tt.Err != nil {
			failed = true
			mt.Matched = false
		}
		mt.Terms = append(mt.Terms, tt)
	}
	return mt
}

func (t *term) explain(f *api.Features) TermTrace {
	tt := TermTrace{Field: t.field, Feature: t.feature}
	present, matched, _, err := t.eval(f)
	tt.Present, tt.Matched, tt.Err = present, matched && err == nil, err
	if !present {
		return tt
	}
	flags, attrs, insts := f.Flags[t.feature].Elements, f.Attributes[t.feature].Elements, f.Instances[t.feature].Elements
	for _, ne := range t.exprs {
		tt.Exprs = append(tt.Exprs, explainExpr(t.field+".matchExpressions."+ne.name, ne.name, ne.expr, flags, attrs, insts))
	}
	if t.matchName != nil {
		et := ExprTrace{Field: t.field + ".matchName", Op: t.matchName.op, Values: t.matchName.values}
		named, err := evalNames(t.matchName, flags, attrs, insts)
		et.Err, et.Matched = err, err == nil && len(named) > 0
		for _, e := range named {
			if n, ok := e["Name"]; ok {
				et.Seen = append(et.Seen, n)
			} else {
				et.Seen = append(et.Seen, "an instance")
			}
		}
		if !et.Matched {
			et.Near = nearNames(t.matchName.values, flags, attrs)
		}
		tt.Exprs = append(tt.Exprs, et)
	}
	return tt
}

// explainExpr evaluates one expression against every kind of element the
// feature has and records what it saw.
func explainExpr(field, name string, e *expr, flags map[string]api.Nil, attrs map[string]string, insts []api.InstanceFeature) ExprTrace {
	et := ExprTrace{Field: field, Element: name, Op: e.op, Values: e.values}
	eval := func(present, hasValue bool, value string) bool {
		m, err := e.eval(present, hasValue, value)
		if err != nil && et.Err == nil {
			et.Err = err
		}
		ok := m && err == nil
		et.Matched = et.Matched || ok
		return ok
	}
	if flags != nil {
		_, ok := flags[name]
		eval(ok, false, "")
		et.Seen = append(et.Seen, presence(ok, "present"))
	}
	if attrs != nil {
		v, ok := attrs[name]
		eval(ok, true, v)
		et.Seen = append(et.Seen, presence(ok, fmt.Sprintf("%q", v)))
	}
	for i, inst := range insts {
		v, ok := inst.Attributes[name]
		m := eval(ok, true, v)
		et.Seen = append(et.Seen, fmt.Sprintf("instance %d %s %v", i, presence(ok, fmt.Sprintf("%q", v)), m))
	}
	return et
}

func presence(ok bool, seen string) string {
	if ok {
		return seen
	}
	return "absent"
}

// nearNames lists, for each value of a matchName, the feature's element
// name closest to it, if one is close.
func nearNames(values []string, flags map[string]api.Nil, attrs map[string]string) []string {
	names := slices.Collect(maps.Keys(flags))
	names = append(names, slices.Collect(maps.Keys(attrs))...)
	var out []string
	for _, v := range values {
		if best := suggest.Closest(v, names); best != "" && !slices.Contains(out, best) {
			out = append(out, best)
		}
	}
	slices.Sort(out)
	return out
}
