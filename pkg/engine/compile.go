package engine

import (
	"fmt"
	"sort"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// RuleSet is the compiled form of all NodeFeatureRule objects, in the order
// nfd-master runs them (by .metadata.name).
type RuleSet struct {
	objects []compiledObject
}

type compiledObject struct {
	ref   ObjectRef
	rules []*rule
}

// Source identifies the rule that produced an output.
type Source struct {
	Object ObjectRef
	// Field is the path of the rule, e.g. spec.rules[2].
	Field    string
	RuleName string
}

// Compile validates and compiles NodeFeatureRule objects. Problems that
// would make a rule fail on any node where it is evaluated are returned as
// diagnostics once, here, rather than once per node.
func Compile(objs []*api.NodeFeatureRule) (*RuleSet, []Diagnostic) {
	sorted := append([]*api.NodeFeatureRule(nil), objs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Metadata.Name < sorted[j].Metadata.Name })
	rs := &RuleSet{}
	var diags []Diagnostic
	for _, o := range sorted {
		ref := ObjectRef{Kind: api.KindNodeFeatureRule, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
		co := compiledObject{ref: ref}
		for i := range o.Spec.Rules {
			r, d := compileRule(&o.Spec.Rules[i], ref, indexField("spec.rules", i))
			co.rules = append(co.rules, r)
			diags = append(diags, d...)
		}
		rs.objects = append(rs.objects, co)
	}
	return rs, diags
}

func compileRule(src *api.Rule, ref ObjectRef, field string) (*rule, []Diagnostic) {
	r := &rule{name: src.Name, field: field, src: src}
	r.matchFeatures = compileMatcher(src.MatchFeatures, field+".matchFeatures")
	for i := range src.MatchAny {
		r.matchAny = append(r.matchAny, compileMatcher(src.MatchAny[i].MatchFeatures, indexField(field+".matchAny", i)+".matchFeatures"))
	}
	var diags []Diagnostic
	report := func(sev Severity, f, format string, args ...any) {
		diags = append(diags, Diagnostic{Severity: sev, Object: ref, Field: f, Message: fmt.Sprintf(format, args...)})
	}
	if src.Name == "" {
		report(SeverityError, field+".name", "rule name is required")
	}
	r.labelsTemplate, r.varsTemplate, r.templateErr = compileTemplates(src.LabelsTemplate, src.VarsTemplate, field, report)
	templateRefDiagnostics(r, report)
	diags = append(diags, matcherDiagnostics(ref, r.matchFeatures)...)
	for _, m := range r.matchAny {
		diags = append(diags, matcherDiagnostics(ref, m)...)
	}
	return r, diags
}

type reportFunc func(sev Severity, field, format string, args ...any)

func compileTemplates(labels, vars, field string, report reportFunc) (lt, vt *kvTemplate, firstErr error) {
	parse := func(text, name string) *kvTemplate {
		if text == "" {
			return nil
		}
		t, err := parseKVTemplate(text)
		if err != nil {
			report(SeverityError, field+"."+name, "%v%s; the rule fails on every node where it matches", err, removedFuncHint(err))
			if firstErr == nil {
				firstErr = err
			}
		}
		return t
	}
	lt = parse(labels, "labelsTemplate")
	vt = parse(vars, "varsTemplate")
	return lt, vt, firstErr
}

// matcherDiagnostics reports expressions that can never evaluate cleanly
// and feature names that templates cannot address.
func matcherDiagnostics(ref ObjectRef, m matcher) []Diagnostic {
	var diags []Diagnostic
	for _, t := range m {
		if t.featureKey == "" || strings.Count(t.feature, ".") != 1 {
			diags = append(diags, Diagnostic{Severity: SeverityWarning, Object: ref, Field: t.field + ".feature",
				Message: fmt.Sprintf("invalid feature name %q (not <domain>.<feature>): it cannot be used in templates", t.feature)})
		}
		for _, ne := range t.exprs {
			diags = append(diags, exprDiagnostics(ref, t.field+".matchExpressions."+ne.name, ne.expr)...)
		}
		if t.matchName != nil {
			diags = append(diags, exprDiagnostics(ref, t.field+".matchName", t.matchName)...)
		}
	}
	return diags
}

func exprDiagnostics(ref ObjectRef, field string, e *expr) []Diagnostic {
	d := Diagnostic{Severity: SeverityError, Object: ref}
	switch {
	case e.alwaysErr != nil && strings.HasPrefix(e.alwaysErr.Error(), "invalid Op"):
		d.Field = field + ".op"
		d.Suggestion = suggest.Closest(string(e.op), validOpList())
		if d.Suggestion != "" {
			d.Message = fmt.Sprintf("%v: did you mean %q? The rule fails on every node where this expression is evaluated", e.alwaysErr, d.Suggestion)
		} else {
			d.Message = fmt.Sprintf("%v: valid operators are %s; the rule fails on every node where this expression is evaluated", e.alwaysErr, validOps())
		}
	case e.alwaysErr != nil:
		d.Field, d.Message = field+".value", fmt.Sprintf("%v; the rule fails on every node where this expression is evaluated", e.alwaysErr)
	case e.presentErr != nil:
		d.Field, d.Message = field+".value", fmt.Sprintf("%v; the rule fails on every node where the element is present", e.presentErr)
	default:
		return nil
	}
	return []Diagnostic{d}
}

func validOps() string {
	return strings.Join(validOpList(), ", ")
}

func validOpList() []string {
	ops := make([]string, 0, len(opSpecs))
	for op := range opSpecs {
		if op != api.MatchAny {
			ops = append(ops, string(op))
		}
	}
	sort.Strings(ops)
	return ops
}
