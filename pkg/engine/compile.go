package engine

import (
	"fmt"
	"sort"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/release"
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

// Compile validates and compiles NodeFeatureRule objects as nfd-master
// v0.19.0 runs them (CompileAs release.Default()). Problems that would
// make a rule fail on any node where it is evaluated are returned as
// diagnostics once, here, rather than once per node.
func Compile(objs []*api.NodeFeatureRule) (*RuleSet, []Diagnostic) {
	return CompileAs(release.Default(), objs)
}

// CompileAs is Compile for the nfd-master of release rel: its template
// functions and size limit, its handling of missing features.
func CompileAs(rel release.Release, objs []*api.NodeFeatureRule) (*RuleSet, []Diagnostic) {
	sorted := append([]*api.NodeFeatureRule(nil), objs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Metadata.Name < sorted[j].Metadata.Name })
	rs := &RuleSet{}
	env := &lazyEnv{rel: rel}
	var diags []Diagnostic
	for _, o := range sorted {
		ref := ObjectRef{Kind: api.KindNodeFeatureRule, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
		co := compiledObject{ref: ref}
		for i := range o.Spec.Rules {
			r, d := compileRule(&o.Spec.Rules[i], ref, indexField("spec.rules", i), env)
			co.rules = append(co.rules, r)
			diags = append(diags, d...)
		}
		rs.objects = append(rs.objects, co)
	}
	return rs, diags
}

func compileRule(src *api.Rule, ref ObjectRef, field string, env *lazyEnv) (*rule, []Diagnostic) {
	r := &rule{name: src.Name, field: field, src: src}
	missingFails := env.rel.Has(release.MissingFeatureFails)
	r.matchFeatures = compileMatcher(src.MatchFeatures, field+".matchFeatures", missingFails)
	for i := range src.MatchAny {
		r.matchAny = append(r.matchAny, compileMatcher(src.MatchAny[i].MatchFeatures, indexField(field+".matchAny", i)+".matchFeatures", missingFails))
	}
	var diags []Diagnostic
	runs := len(src.MatchFeatures) > 0 || len(src.MatchAny) > 0
	report := func(sev Severity, f, format string, args ...any) {
		d := Diagnostic{Severity: sev, Object: ref, Field: f, Message: fmt.Sprintf(format, args...)}
		// A template nfd-master never runs (no matchers) is broken for
		// certain but does not fail the rule's static outputs.
		if sev == SeverityError && r.fatal == nil && (runs || !strings.HasSuffix(f, "Template")) {
			r.fatal = fmt.Errorf("%s: %s", f, d.Message)
		}
		diags = append(diags, d)
	}
	if src.Name == "" {
		report(SeverityError, field+".name", "rule name is required")
	}
	r.labelsTemplate = compileTemplate(src.LabelsTemplate, field+".labelsTemplate", runs, env, report)
	r.varsTemplate = compileTemplate(src.VarsTemplate, field+".varsTemplate", runs, env, report)
	templateRefDiagnostics(r, report)
	for _, m := range append([]matcher{r.matchFeatures}, r.matchAny...) {
		for _, d := range matcherDiagnostics(ref, m) {
			if r.fatal == nil && d.Severity == SeverityError && m.failsAlways(d.Field) {
				r.fatal = fmt.Errorf("%s: %s", d.Field, d.Message)
			}
			diags = append(diags, d)
		}
	}
	return r, diags
}

type reportFunc func(sev Severity, field, format string, args ...any)

// compileTemplate parses one template. nfd-master runs templates only on a
// match: a template that does not parse is an error, certain to fail
// wherever the rule matches; in a rule without matchers nfd-master never
// runs it (and applies the rule's static outputs), so it never does what
// it asks either.
func compileTemplate(text, field string, runs bool, env *lazyEnv, report reportFunc) *kvTemplate {
	if text == "" {
		return nil
	}
	t, err := parseKVTemplate(text, env.get())
	switch {
	case err != nil && runs:
		report(SeverityError, field, "%v%s; the rule fails on every node where it matches", err, removedFuncHint(err, env.rel))
	case err != nil:
		report(SeverityError, field, "%v%s; nfd-master never runs it, since the rule has no matchFeatures or matchAny", err, removedFuncHint(err, env.rel))
	case runs:
		nondeterministicDiagnostics(t, field, report)
		hostEnvDiagnostics(t, field, report)
	}
	return t
}

// nondeterministicDiagnostics warns about calls whose result changes on
// every run: what nfd-fn renders cannot be what the cluster gets.
func nondeterministicDiagnostics(t *kvTemplate, field string, report reportFunc) {
	for _, name := range t.funcNames() {
		if nondeterministicFuncs[name] {
			report(SeverityWarning, field, "template calls %s, whose result changes on every run: nfd-fn's output cannot predict nfd-master's, and the node changes on every update", name)
		}
	}
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

// exprDiagnostics reports an expression that cannot evaluate cleanly: an
// error whether it fails wherever nfd-master evaluates it or only on nodes
// where the element is present with a value, since either way it never
// does what it asks (severity is the certainty of the defect).
func exprDiagnostics(ref ObjectRef, field string, e *expr) []Diagnostic {
	d := Diagnostic{Severity: SeverityError, Object: ref}
	switch {
	case e.alwaysErr != nil && e.errAt == "op":
		d.Field = field + ".op"
		d.Suggestion = suggest.Closest(string(e.op), validOpList())
		if d.Suggestion != "" {
			d.Message = fmt.Sprintf("%v: did you mean %q? The rule fails on every node where this expression is evaluated", e.alwaysErr, d.Suggestion)
		} else {
			d.Message = fmt.Sprintf("%v: valid operators are %s; the rule fails on every node where this expression is evaluated", e.alwaysErr, validOps())
		}
	case e.alwaysErr != nil:
		d.Field, d.Message = field+".value", fmt.Sprintf("%v; the rule fails on every node where this expression is evaluated", e.alwaysErr)
	case e.presentErr != nil && e.errAt == "type":
		d.Field = field + ".type"
		d.Message = fmt.Sprintf("%v; the rule fails on every node where the element is present with a value", e.presentErr)
	case e.presentErr != nil:
		d.Field = field + ".value"
		d.Message = fmt.Sprintf("%v; the rule fails on every node where the element is present with a value", e.presentErr)
	case e.operandErr != nil:
		d.Field = field + ".value"
		d.Message = fmt.Sprintf("%v; the rule fails on every node where the element is present with a value", e.operandErr)
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
