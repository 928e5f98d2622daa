package discover

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// customRule is one entry of sources.custom: a legacy matchOn rule or a
// NodeFeatureRule-style rule (with the worker-only short forms).
type customRule struct {
	legacy *legacyRule
	rule   *v1alpha1.Rule
}

// UnmarshalJSON picks the legacy form when the rule has a matchOn key.
func (c *customRule) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	for k := range raw {
		if strings.EqualFold(k, "matchOn") {
			c.legacy = &legacyRule{}
			return json.Unmarshal(data, c.legacy)
		}
	}
	var r ruleConfig
	if err := json.Unmarshal(data, &r); err != nil {
		return err
	}
	c.rule = r.toRule()
	return nil
}

// legacyRule is the deprecated matchOn rule: matchers are ORed, the rules
// of a matcher ANDed; the label is custom-<name> unless name has a prefix.
type legacyRule struct {
	Name    string          `json:"name"`
	Value   *string         `json:"value"`
	MatchOn []legacyMatcher `json:"matchOn"`
}

// legacyMatcher holds at most one of each legacy rule.
type legacyMatcher struct {
	PciID      *idRule   `json:"pciId"`
	UsbID      *idRule   `json:"usbId"`
	LoadedKMod *[]string `json:"loadedKMod"`
	CpuID      *[]string `json:"cpuId"`
	Kconfig    *[]string `json:"kConfig"`
	Nodename   *[]string `json:"nodename"`
}

// idRule is the input of the pciId and usbId legacy rules.
type idRule struct {
	Class  []string `json:"class"`
	Vendor []string `json:"vendor"`
	Device []string `json:"device"`
	Serial []string `json:"serial"`
}

// ruleConfig is a NodeFeatureRule-style rule as written in the worker
// configuration.
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

// toRule converts the rule to the API type.
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
		out[i] = v1alpha1.FeatureMatcherTerm(t)
	}
	return out
}

// termConfig is a matcher term; besides the full form it accepts the
// short form {<feature>: <expression set>}.
type termConfig v1alpha1.FeatureMatcherTerm

// UnmarshalJSON decodes the full or the short form of a term.
func (t *termConfig) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if _, ok := raw["feature"]; !ok && len(raw) == 1 {
		for name, v := range raw {
			set, err := decodeExpressionSet(v)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			*t = termConfig{Feature: name, MatchExpressions: &set}
		}
		return nil
	}
	*t = termConfig{}
	if f, ok := raw["feature"]; ok {
		if err := json.Unmarshal(f, &t.Feature); err != nil {
			return fmt.Errorf("feature: %w", err)
		}
	}
	if v, ok := raw["matchExpressions"]; ok && string(v) != "null" {
		set, err := decodeExpressionSet(v)
		if err != nil {
			return fmt.Errorf("matchExpressions: %w", err)
		}
		t.MatchExpressions = &set
	}
	if v, ok := raw["matchName"]; ok && string(v) != "null" {
		e, err := decodeExpression(v)
		if err != nil {
			return fmt.Errorf("matchName: %w", err)
		}
		t.MatchName = e
	}
	return nil
}

// decodeExpressionSet decodes a map of expressions or the short list form
// ["name", "name=value"] (Exists and In).
func decodeExpressionSet(data []byte) (v1alpha1.MatchExpressionSet, error) {
	set := v1alpha1.MatchExpressionSet{}
	var names []string
	if err := json.Unmarshal(data, &names); err == nil {
		for _, n := range names {
			if k, v, ok := strings.Cut(n, "="); ok {
				set[k] = &v1alpha1.MatchExpression{Op: v1alpha1.MatchIn, Value: v1alpha1.MatchValue{v}}
			} else {
				set[n] = &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}
			}
		}
		return set, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("expected a map or a list of names: %w", err)
	}
	for k, v := range raw {
		e, err := decodeExpression(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		set[k] = e
	}
	return set, nil
}

// decodeExpression decodes an expression: null (Exists), a scalar or a list
// of strings (In), or the full {op, value, type} form; it is validated.
func decodeExpression(data []byte) (*v1alpha1.MatchExpression, error) {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}, nil
	}
	if obj, ok := raw.(map[string]any); ok {
		return decodeFullExpression(obj)
	}
	values, err := decodeValues(raw)
	if err != nil {
		return nil, err
	}
	return &v1alpha1.MatchExpression{Op: v1alpha1.MatchIn, Value: values}, nil
}

// decodeFullExpression decodes {op, value, type}.
func decodeFullExpression(obj map[string]any) (*v1alpha1.MatchExpression, error) {
	e := &v1alpha1.MatchExpression{}
	if op, ok := obj["op"].(string); ok {
		e.Op = v1alpha1.MatchOp(op)
	} else if obj["op"] != nil {
		return nil, fmt.Errorf("op: expected a string, got %v", obj["op"])
	}
	if v, ok := obj["value"]; ok && v != nil {
		values, err := decodeValues(v)
		if err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
		e.Value = values
	}
	if t, ok := obj["type"].(string); ok {
		e.Type = v1alpha1.ValueType(t)
	}
	return e, validateExpression(e)
}

// decodeValues turns a scalar or a list of strings into values.
func decodeValues(raw any) (v1alpha1.MatchValue, error) {
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
				return nil, fmt.Errorf("invalid value %v in %v: values must be strings", x, v)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("invalid value %v (%T)", raw, raw)
}
