package engine

import (
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// RuleResult is the output of one rule that matched on a node.
type RuleResult struct {
	Source Source
	Output
}

// Execute runs every rule against one node's features, in nfd-master's
// order, and returns the outputs of the rules that matched and the errors of
// the rules that failed. As nfd-master does, after each rule that ran
// without error its labels and then its vars are fed back into the
// rule.matched attribute feature of f, for later rules to match on; f is
// modified in place.
func (rs *RuleSet) Execute(f *api.Features) ([]RuleResult, []*EvalError) {
	if f.Attributes == nil {
		f.Attributes = map[string]api.AttributeFeatureSet{}
	}
	var results []RuleResult
	var errs []*EvalError
	for _, o := range rs.objects {
		for _, r := range o.rules {
			out, matched, err := r.execute(f)
			if err != nil {
				errs = append(errs, evalError(o.ref, r, err))
				continue
			}
			insertBackrefs(f, out.Labels)
			insertBackrefs(f, out.Vars)
			if matched {
				results = append(results, RuleResult{Source: Source{Object: o.ref, Field: r.field, RuleName: r.name}, Output: out})
			}
		}
	}
	return results, errs
}

const backrefFeature = api.RuleBackrefDomain + "." + api.RuleBackrefFeature

// insertBackrefs adds values to the rule.matched feature, creating it (even
// empty) the first time, like nfd-master's InsertAttributeFeatures.
func insertBackrefs(f *api.Features, values map[string]string) {
	fs, ok := f.Attributes[backrefFeature]
	if !ok || fs.Elements == nil {
		fs.Elements = make(map[string]string, len(values))
		f.Attributes[backrefFeature] = fs
	}
	for k, v := range values {
		fs.Elements[k] = v
	}
}

func evalError(ref ObjectRef, r *rule, err error) *EvalError {
	field := r.field
	if te, ok := err.(*termError); ok {
		field, err = te.field, te.err
	}
	return &EvalError{Object: ref, RuleName: r.name, RuleField: r.field, Field: field, Err: err}
}

// EvaluateRule compiles and runs a single rule against f without feeding
// back rule.matched, for callers that manage back-references themselves
// (nfd-worker's custom source). Static problems surface as the error.
func EvaluateRule(r *api.Rule, f *api.Features) (Output, bool, error) {
	return CompileRule(r).Evaluate(f)
}

// SingleRule is one rule compiled once to be evaluated on many feature
// sets (CompileRule), as EvaluateRule evaluates it.
type SingleRule struct{ r *rule }

// CompileRule compiles r for Evaluate; its static problems are
// Evaluate's error.
func CompileRule(r *api.Rule) *SingleRule {
	cr, _ := compileRule(r, ObjectRef{}, "rule", &lazyEnv{rel: release.Default()})
	return &SingleRule{r: cr}
}

// Evaluate runs the rule against f, as EvaluateRule does.
func (s *SingleRule) Evaluate(f *api.Features) (Output, bool, error) {
	if s.r.fatal != nil {
		return Output{}, false, s.r.fatal
	}
	out, matched, err := s.r.execute(f)
	if te, ok := err.(*termError); ok {
		err = te.err
	}
	return out, matched, err
}
