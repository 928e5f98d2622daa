package discover

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// RuleEvaluator evaluates one NodeFeatureRule-style rule of the worker's
// custom source against the discovered features (which include the
// rule.matched back-references of earlier rules).
type RuleEvaluator interface {
	// EvaluateRule returns the rule's output; an error aborts the rule.
	EvaluateRule(rule v1alpha1.Rule, features v1alpha1.Features) (RuleOutput, error)
}

// RuleOutput is what a rule produces.
type RuleOutput struct {
	// Matched is true when the rule matched.
	Matched bool
	// Labels and Vars are the rule's outputs (nil when not matched).
	Labels, Vars map[string]string
}

// MinimalEvaluator is a small stand-in for the rule engine: it supports the
// ops In, NotIn, InRegexp, Exists, DoesNotExist, Gt, Ge, Lt, Le, GtLt, GeLe,
// IsTrue and IsFalse with integer operands on flags, attributes and
// instances, matchName, matchAny and static labels and vars. Templates and
// "type: version" are errors.
type MinimalEvaluator struct{}

// EvaluateRule implements RuleEvaluator.
func (MinimalEvaluator) EvaluateRule(r v1alpha1.Rule, f v1alpha1.Features) (RuleOutput, error) {
	if r.LabelsTemplate != "" || r.VarsTemplate != "" {
		return RuleOutput{}, errors.New("templates are not supported by the minimal evaluator")
	}
	ok, err := matchAll(r.MatchFeatures, f)
	if err != nil || !ok {
		return RuleOutput{}, err
	}
	if len(r.MatchAny) > 0 {
		any := false
		for _, m := range r.MatchAny {
			if any, err = matchAll(m.MatchFeatures, f); err != nil {
				return RuleOutput{}, err
			} else if any {
				break
			}
		}
		if !any {
			return RuleOutput{}, nil
		}
	}
	return RuleOutput{Matched: true, Labels: r.Labels, Vars: r.Vars}, nil
}

// matchAll reports whether every term matches.
func matchAll(terms v1alpha1.FeatureMatcher, f v1alpha1.Features) (bool, error) {
	for _, t := range terms {
		ok, err := matchTerm(t, f)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// matchTerm evaluates one term; a feature that does not exist is false.
func matchTerm(t v1alpha1.FeatureMatcherTerm, f v1alpha1.Features) (bool, error) {
	name := strings.ToLower(t.Feature)
	if fs, ok := f.Flags[name]; ok {
		return matchElements(t, sortedKeys(fs.Elements), func(k string) (string, bool, bool) {
			_, ok := fs.Elements[k]
			return "", ok, false
		})
	}
	if as, ok := f.Attributes[name]; ok {
		return matchElements(t, sortedKeys(as.Elements), func(k string) (string, bool, bool) {
			v, ok := as.Elements[k]
			return v, ok, true
		})
	}
	if is, ok := f.Instances[name]; ok {
		return matchInstances(t, is.Elements)
	}
	return false, nil
}

// lookupFunc returns an element's value, whether it exists and whether the
// feature has values at all (flags do not).
type lookupFunc func(name string) (value string, exists, hasValue bool)

// matchElements evaluates a term on one flag or attribute set.
func matchElements(t v1alpha1.FeatureMatcherTerm, names []string, get lookupFunc) (bool, error) {
	if t.MatchExpressions != nil {
		if len(*t.MatchExpressions) == 0 && len(names) == 0 {
			return false, nil
		}
		for _, k := range sortedKeys(*t.MatchExpressions) {
			ok, err := matchElement((*t.MatchExpressions)[k], k, get)
			if err != nil || !ok {
				return false, err
			}
		}
	}
	if t.MatchName != nil {
		return matchAnyName(t.MatchName, names)
	}
	return true, nil
}

// matchElement evaluates one expression on the element name of a set.
func matchElement(e *v1alpha1.MatchExpression, name string, get lookupFunc) (bool, error) {
	if e == nil {
		e = &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}
	}
	v, exists, hasValue := get(name)
	switch e.Op {
	case v1alpha1.MatchExists:
		return exists, nil
	case v1alpha1.MatchDoesNotExist:
		return !exists, nil
	}
	if !hasValue {
		return false, fmt.Errorf("invalid op %q for a flag feature", e.Op)
	}
	if !exists {
		return false, nil
	}
	return evalOp(e, v)
}

// matchAnyName is true when some element name satisfies e.
func matchAnyName(e *v1alpha1.MatchExpression, names []string) (bool, error) {
	for _, n := range names {
		switch e.Op {
		case v1alpha1.MatchExists:
			return true, nil
		case v1alpha1.MatchDoesNotExist:
			return false, nil
		}
		ok, err := evalOp(e, n)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// matchInstances is true when one instance satisfies the whole term.
func matchInstances(t v1alpha1.FeatureMatcherTerm, list []v1alpha1.InstanceFeature) (bool, error) {
	for _, inst := range list {
		attrs := inst.Attributes
		ok, err := matchElements(t, sortedKeys(attrs), func(k string) (string, bool, bool) {
			v, ok := attrs[k]
			return v, ok, true
		})
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// evalOp applies a value operator to an existing element's value.
func evalOp(e *v1alpha1.MatchExpression, v string) (bool, error) {
	if err := validateExpression(e); err != nil {
		return false, err
	}
	switch e.Op {
	case v1alpha1.MatchAny:
		return true, nil
	case v1alpha1.MatchIn:
		return slices.Contains(e.Value, v), nil
	case v1alpha1.MatchNotIn:
		return !slices.Contains(e.Value, v), nil
	case v1alpha1.MatchInRegexp:
		return matchRegexps(e.Value, v)
	case v1alpha1.MatchIsTrue:
		return v == "true", nil
	case v1alpha1.MatchIsFalse:
		return v == "false", nil
	}
	return compareInts(e, v)
}

// matchRegexps is true when v matches one of the patterns.
func matchRegexps(patterns []string, v string) (bool, error) {
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return false, fmt.Errorf("invalid regexp %q: %w", p, err)
		}
		if re.MatchString(v) {
			return true, nil
		}
	}
	return false, nil
}

// compareInts evaluates the comparison ops on decimal integers.
func compareInts(e *v1alpha1.MatchExpression, v string) (bool, error) {
	if e.Type != v1alpha1.ValueTypeInt {
		return false, fmt.Errorf("value type %q is not supported by the minimal evaluator", e.Type)
	}
	x, err := strconv.Atoi(v)
	if err != nil {
		return false, fmt.Errorf("not a number %q", v)
	}
	args := make([]int, len(e.Value))
	for i, s := range e.Value {
		if args[i], err = strconv.Atoi(s); err != nil {
			return false, fmt.Errorf("not a number %q", s)
		}
	}
	switch e.Op {
	case v1alpha1.MatchGt:
		return x > args[0], nil
	case v1alpha1.MatchGe:
		return x >= args[0], nil
	case v1alpha1.MatchLt:
		return x < args[0], nil
	case v1alpha1.MatchLe:
		return x <= args[0], nil
	case v1alpha1.MatchGtLt:
		return x > args[0] && x < args[1], nil
	case v1alpha1.MatchGeLe:
		return x >= args[0] && x <= args[1], nil
	}
	return false, fmt.Errorf("unknown op %q", e.Op)
}

// validateExpression checks the op and its number of values.
func validateExpression(e *v1alpha1.MatchExpression) error {
	n := len(e.Value)
	switch e.Op {
	case v1alpha1.MatchAny, v1alpha1.MatchExists, v1alpha1.MatchDoesNotExist, v1alpha1.MatchIsTrue, v1alpha1.MatchIsFalse:
		if n != 0 {
			return fmt.Errorf("value must be empty for op %q (have %v)", e.Op, e.Value)
		}
	case v1alpha1.MatchIn, v1alpha1.MatchNotIn, v1alpha1.MatchInRegexp:
		if n == 0 {
			return fmt.Errorf("value must be non-empty for op %q", e.Op)
		}
	case v1alpha1.MatchGt, v1alpha1.MatchGe, v1alpha1.MatchLt, v1alpha1.MatchLe:
		if n != 1 {
			return fmt.Errorf("value must contain exactly one element for op %q (have %v)", e.Op, e.Value)
		}
	case v1alpha1.MatchGtLt, v1alpha1.MatchGeLe:
		if n != 2 {
			return fmt.Errorf("value must contain exactly two elements for op %q (have %v)", e.Op, e.Value)
		}
	default:
		return fmt.Errorf("invalid op %q", e.Op)
	}
	return nil
}
