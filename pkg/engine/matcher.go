package engine

import (
	"fmt"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// templateData is what labelsTemplate and varsTemplate see:
// .<domain>.<feature> is the list of matched elements.
type templateData map[string]map[string][]Element

// matcher is a compiled FeatureMatcher: a logical AND over its terms.
type matcher []*term

// compileMatcher compiles a FeatureMatcher; with missingFails (NFD v0.16)
// a term on a feature the node does not have fails the rule.
func compileMatcher(fm api.FeatureMatcher, field string, missingFails bool) matcher {
	m := make(matcher, len(fm))
	for i := range fm {
		m[i] = compileTerm(&fm[i], indexField(field, i))
		m[i].missingFails = missingFails
	}
	return m
}

// eval evaluates the terms in order and stops at the first that fails, as
// nfd-master does. On a match it returns the template data of all terms.
func (m matcher) eval(f *api.Features) (bool, templateData, error) {
	data := make(templateData, len(m))
	for _, t := range m {
		present, ok, elems, err := t.eval(f)
		if !present && t.missingFails {
			return false, nil, &termError{field: t.field, err: fmt.Errorf("feature %q not available", t.feature)}
		}
		if !present {
			return false, nil, nil
		}
		dom := data[t.domain]
		if dom == nil {
			dom = map[string][]Element{}
			data[t.domain] = dom
		}
		dom[t.featureKey] = append(dom[t.featureKey], elems...)
		if err != nil {
			return false, nil, &termError{field: t.field, err: err}
		}
		if !ok {
			return false, nil, nil
		}
	}
	return true, data, nil
}

// termError carries the field path of the term that failed.
type termError struct {
	field string
	err   error
}

func (e *termError) Error() string { return e.err.Error() }
func (e *termError) Unwrap() error { return e.err }

// failsAlways reports whether the diagnostic at field is about an
// expression of m that fails wherever it is evaluated (an unknown
// operator, values given to a presence operator), rather than only where
// its element is present with a value.
func (m matcher) failsAlways(field string) bool {
	for _, t := range m {
		for _, ne := range t.exprs {
			if ne.expr.alwaysErr != nil && isExprField(field, t.field+".matchExpressions."+ne.name) {
				return true
			}
		}
		if t.matchName != nil && t.matchName.alwaysErr != nil && isExprField(field, t.field+".matchName") {
			return true
		}
	}
	return false
}

func isExprField(field, expr string) bool {
	rest, ok := strings.CutPrefix(field, expr)
	return ok && (rest == ".op" || rest == ".value" || rest == ".type")
}
