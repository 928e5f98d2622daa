package discover

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// ruleConfig is a rule of nfd-worker v0.19's custom-rule API
// (source/custom/api/types.go), an entry of sources.custom or of a custom.d
// file. It has no annotations, taints or extended resources (those exist
// only in NodeFeatureRule objects) and no legacy matchOn form (removed in
// NFD v0.15): such a key is an unknown field. Decoding follows nfd-worker:
// fields are matched case-insensitively; sources.custom ignores unknown
// fields while a custom.d file is decoded strictly, down to the matcher
// terms (the expressions have decoders of their own, which are lenient);
// expressions are validated while decoding.
type ruleConfig struct {
	Name           string            `json:"name"`
	Labels         map[string]string `json:"labels"`
	LabelsTemplate string            `json:"labelsTemplate"`
	Vars           map[string]string `json:"vars"`
	VarsTemplate   string            `json:"varsTemplate"`
	MatchFeatures  []termConfig      `json:"matchFeatures"`
	MatchAny       []struct {
		MatchFeatures []termConfig `json:"matchFeatures"`
	} `json:"matchAny"`
}

// termConfig is a matcher term. There is no short form for a whole term in
// nfd-worker v0.19: a key other than these three is ignored, which leaves
// a term without a feature that never matches.
type termConfig struct {
	Feature          string         `json:"feature"`
	MatchExpressions *expressionSet `json:"matchExpressions"`
	MatchName        *expression    `json:"matchName"`
}

// toRule converts the rule to the API type the evaluator runs.
func (r ruleConfig) toRule() *v1alpha1.Rule {
	out := &v1alpha1.Rule{
		Name: r.Name, Labels: r.Labels, LabelsTemplate: r.LabelsTemplate,
		Vars: r.Vars, VarsTemplate: r.VarsTemplate, MatchFeatures: toMatcher(r.MatchFeatures),
	}
	for _, m := range r.MatchAny {
		out.MatchAny = append(out.MatchAny, v1alpha1.MatchAnyElem{MatchFeatures: toMatcher(m.MatchFeatures)})
	}
	return out
}

// toMatcher converts matcher terms to the API type.
func toMatcher(terms []termConfig) v1alpha1.FeatureMatcher {
	if terms == nil {
		return nil
	}
	out := make(v1alpha1.FeatureMatcher, len(terms))
	for i, t := range terms {
		out[i] = v1alpha1.FeatureMatcherTerm{Feature: t.Feature}
		if t.MatchExpressions != nil {
			set := v1alpha1.MatchExpressionSet(*t.MatchExpressions)
			out[i].MatchExpressions = &set
		}
		if t.MatchName != nil {
			e := v1alpha1.MatchExpression(*t.MatchName)
			out[i].MatchName = &e
		}
	}
	return out
}

// expressionSet is an expression set in the full map form or the short
// list form ["name", "name=value"] (Exists and In).
type expressionSet v1alpha1.MatchExpressionSet

// UnmarshalJSON decodes either form; a null expression means Exists.
func (s *expressionSet) UnmarshalJSON(data []byte) error {
	*s = expressionSet{}
	var names []string
	if err := json.Unmarshal(data, &names); err == nil {
		for _, n := range names {
			if k, v, ok := strings.Cut(n, "="); ok {
				(*s)[k] = &v1alpha1.MatchExpression{Op: v1alpha1.MatchIn, Value: v1alpha1.MatchValue{v}}
			} else {
				(*s)[n] = &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}
			}
		}
		return nil
	}
	var full map[string]*expression
	if err := json.Unmarshal(data, &full); err != nil {
		return err
	}
	for k, e := range full {
		if e == nil {
			(*s)[k] = &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}
			continue
		}
		me := v1alpha1.MatchExpression(*e)
		(*s)[k] = &me
	}
	return nil
}

// expression is one expression of the custom-rule API: a scalar or a list
// of strings (In) or {op, value}. Only the ops of nfd-worker's custom-rule
// API exist (no Ge, Le or GeLe) and there is no type field.
type expression v1alpha1.MatchExpression

// UnmarshalJSON decodes and validates an expression.
func (e *expression) UnmarshalJSON(data []byte) error {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if _, ok := raw.(map[string]any); ok {
		var full struct {
			Op    customOp   `json:"op"`
			Value matchValue `json:"value"`
		}
		if err := json.Unmarshal(data, &full); err != nil {
			return err
		}
		*e = expression{Op: v1alpha1.MatchOp(full.Op), Value: v1alpha1.MatchValue(full.Value)}
	} else {
		values, err := valuesOf(raw)
		if err != nil {
			return fmt.Errorf("invalid rule %v: %w", raw, err)
		}
		*e = expression{Op: v1alpha1.MatchIn, Value: values}
	}
	return validateCustomExpression((*v1alpha1.MatchExpression)(e))
}

// customOps are the operators of nfd-worker's custom-rule API.
func customOps() map[v1alpha1.MatchOp]bool {
	return map[v1alpha1.MatchOp]bool{
		v1alpha1.MatchAny: true, v1alpha1.MatchIn: true, v1alpha1.MatchNotIn: true, v1alpha1.MatchInRegexp: true,
		v1alpha1.MatchExists: true, v1alpha1.MatchDoesNotExist: true, v1alpha1.MatchGt: true, v1alpha1.MatchLt: true,
		v1alpha1.MatchGtLt: true, v1alpha1.MatchIsTrue: true, v1alpha1.MatchIsFalse: true,
	}
}

// customOp is an operator name, checked while decoding.
type customOp v1alpha1.MatchOp

// UnmarshalJSON accepts only the custom-rule API's operators.
func (o *customOp) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if !customOps()[v1alpha1.MatchOp(s)] {
		return invalidOpError(s)
	}
	*o = customOp(s)
	return nil
}

// matchValue is an expression's value: a scalar or a list of strings.
type matchValue v1alpha1.MatchValue

// UnmarshalJSON decodes a scalar or a list of strings.
func (v *matchValue) UnmarshalJSON(data []byte) error {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	values, err := valuesOf(raw)
	if err != nil {
		return fmt.Errorf("invalid values: %w", err)
	}
	*v = matchValue(values)
	return nil
}

// valuesOf turns a JSON scalar or a list of strings into values; numbers
// are written the shortest way, as nfd-worker does.
func valuesOf(raw any) (v1alpha1.MatchValue, error) {
	switch v := raw.(type) {
	case string:
		return v1alpha1.MatchValue{v}, nil
	case bool:
		return v1alpha1.MatchValue{strconv.FormatBool(v)}, nil
	case float64:
		return v1alpha1.MatchValue{strconv.FormatFloat(v, 'f', -1, 64)}, nil
	case []any:
		out := make(v1alpha1.MatchValue, len(v))
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%v in %v is not a string (nfd-worker refuses numbers and booleans in a list: quote them)", x, v)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("%v (%T) is neither a string nor a list of strings", raw, raw)
}

// validateCustomExpression checks an expression as nfd-worker's custom-rule
// API does while decoding: value counts per op, integers for Gt, Lt and
// GtLt (with the bounds in order), regexps that compile for InRegexp.
func validateCustomExpression(e *v1alpha1.MatchExpression) error {
	switch e.Op {
	case v1alpha1.MatchExists, v1alpha1.MatchDoesNotExist, v1alpha1.MatchIsTrue, v1alpha1.MatchIsFalse, v1alpha1.MatchAny:
		if len(e.Value) != 0 {
			return fmt.Errorf("value must be empty for Op %q (have %v)", e.Op, e.Value)
		}
	case v1alpha1.MatchGt, v1alpha1.MatchLt:
		if len(e.Value) != 1 {
			return fmt.Errorf("value must contain exactly one element for Op %q (have %v)", e.Op, e.Value)
		}
		if _, err := strconv.Atoi(e.Value[0]); err != nil {
			return fmt.Errorf("value must be an integer for Op %q (have %v)", e.Op, e.Value[0])
		}
	case v1alpha1.MatchGtLt:
		return validateGtLt(e)
	case v1alpha1.MatchInRegexp:
		if len(e.Value) == 0 {
			return fmt.Errorf("value must be non-empty for Op %q", e.Op)
		}
		for _, v := range e.Value {
			if _, err := regexp.Compile(v); err != nil {
				return fmt.Errorf("value must only contain valid regexps for Op %q (have %v)", e.Op, e.Value)
			}
		}
	default:
		if len(e.Value) == 0 {
			return fmt.Errorf("value must be non-empty for Op %q", e.Op)
		}
	}
	return nil
}

// validateGtLt checks the two integer bounds of GtLt.
func validateGtLt(e *v1alpha1.MatchExpression) error {
	if len(e.Value) != 2 {
		return fmt.Errorf("value must contain exactly two elements for Op %q (have %v)", e.Op, e.Value)
	}
	lo, err1 := strconv.Atoi(e.Value[0])
	hi, err2 := strconv.Atoi(e.Value[1])
	if err1 != nil || err2 != nil {
		return fmt.Errorf("value must contain integers for Op %q (have %v)", e.Op, e.Value)
	}
	if lo >= hi {
		return fmt.Errorf("value[0] must be less than Value[1] for Op %q (have %v)", e.Op, e.Value)
	}
	return nil
}
