// Package nfdyaml decodes NodeFeature, NodeFeatureRule and NodeFeatureGroup
// objects from YAML strictly, with messages that explain the mistakes people
// commonly copy from old NFD documentation.
package nfdyaml

import (
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

var decoder = yamlstrict.NewDecoder(hints{})

// DecodeNodeFeature decodes a NodeFeature from n.
func DecodeNodeFeature(n *yaml.Node) (*api.NodeFeature, []*yamlstrict.FieldError) {
	var o api.NodeFeature
	return &o, decoder.Decode(n, &o, "")
}

// DecodeNodeFeatureRule decodes a NodeFeatureRule from n.
func DecodeNodeFeatureRule(n *yaml.Node) (*api.NodeFeatureRule, []*yamlstrict.FieldError) {
	var o api.NodeFeatureRule
	return &o, decoder.Decode(n, &o, "")
}

// DecodeNodeFeatureGroup decodes a NodeFeatureGroup from n.
func DecodeNodeFeatureGroup(n *yaml.Node) (*api.NodeFeatureGroup, []*yamlstrict.FieldError) {
	var o api.NodeFeatureGroup
	return &o, decoder.Decode(n, &o, "")
}

// Decode decodes n into out with the NFD hints; out is any pointer.
func Decode(n *yaml.Node, out any, base string) []*yamlstrict.FieldError {
	return decoder.Decode(n, out, base)
}

type hints struct{}

var (
	typeMatchExpression    = reflect.TypeOf(api.MatchExpression{})
	typeMatchExpressionSet = reflect.TypeOf(api.MatchExpressionSet{})
	typeTerm               = reflect.TypeOf(api.FeatureMatcherTerm{})
	typeMatcher            = reflect.TypeOf(api.FeatureMatcher{})
	typeRule               = reflect.TypeOf(api.Rule{})
)

const shortFormOnlyInWorker = "the short form is only valid in nfd-worker's custom rule configuration, not in NodeFeatureRule or NodeFeatureGroup objects"

// UnknownField explains common unknown fields.
func (hints) UnknownField(t reflect.Type, key string) string {
	switch {
	case t == typeMatchExpression && key == "values":
		return `did you mean "value"? ("values" appears in old NFD documentation but is not a field of a match expression)`
	case t == typeTerm && strings.Contains(key, "."):
		return "write `feature: " + key + "` with matchExpressions; " + shortFormOnlyInWorker
	case t == typeRule && key == "matchOn":
		return "matchOn is the legacy custom-source syntax of nfd-worker; NodeFeatureRules use matchFeatures and matchAny"
	}
	return ""
}

// WrongKind explains the worker-only short forms.
func (hints) WrongKind(t reflect.Type, n *yaml.Node) string {
	switch {
	case t == typeMatchExpression && n.Kind != yaml.MappingNode:
		return "expected an expression such as {op: In, value: [\"8086\"]}; " + shortFormOnlyInWorker
	case t == typeMatchExpressionSet && n.Kind == yaml.SequenceNode:
		return "expected a mapping of element names to expressions, got a list; " + shortFormOnlyInWorker
	case t == typeMatcher && n.Kind == yaml.MappingNode:
		return "expected a list of terms ({feature: ..., matchExpressions: ...})"
	}
	return ""
}
