package objects

import (
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// decoder refuses YAML 1.1 booleans where a string is expected: kubectl and
// Helm send them as booleans, which the API server refuses.
var decoder = yamlstrict.NewDecoder(hints{}).RefusingYAML11Booleans()

// hints explain the mistakes people commonly copy from old NFD
// documentation when the strict decoder meets them.
type hints struct{}

var (
	typeMatchExpression    = reflect.TypeOf(api.MatchExpression{})
	typeMatchExpressionSet = reflect.TypeOf(api.MatchExpressionSet{})
	typeTerm               = reflect.TypeOf(api.FeatureMatcherTerm{})
	typeMatcher            = reflect.TypeOf(api.FeatureMatcher{})
	typeRule               = reflect.TypeOf(api.Rule{})
	typeGroupSpec          = reflect.TypeOf(api.NodeFeatureGroupSpec{})
)

const shortFormOnlyInWorker = "the short form is only valid in nfd-worker's custom rule configuration, not in NodeFeatureRule or NodeFeatureGroup objects"

// UnknownField explains common unknown fields.
func (hints) UnknownField(t reflect.Type, key string) string {
	switch {
	case t == typeMatchExpression && key == "values":
		return `did you mean "value"? ("values" appears in old NFD documentation but is not a field of a match expression)`
	case t == typeTerm && strings.Contains(key, "."):
		return "write `feature: " + key + "` with matchExpressions; " + shortFormOnlyInWorker
	case t == typeGroupSpec && key == "rules":
		return `did you mean "featureGroupRules"? (a NodeFeatureGroup's rules are featureGroupRules, unlike a NodeFeatureRule's)`
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
	case t == typeMatchExpressionSet && n.Kind == yaml.SequenceNode && nodeSelectorForm(n):
		return "expected a mapping of element names to expressions, got a list in the form of a Kubernetes nodeSelector term ({key, operator, values}); NFD writes each as <element>: {op: <operator>, value: [...]}, such as major: {op: In, value: [\"6\"]}"
	case t == typeMatchExpressionSet && n.Kind == yaml.SequenceNode:
		return "expected a mapping of element names to expressions, got a list; " + shortFormOnlyInWorker
	case t == typeMatcher && n.Kind == yaml.MappingNode:
		return "expected a list of terms ({feature: ..., matchExpressions: ...})"
	}
	return ""
}

// nodeSelectorForm reports a list whose first entry is a Kubernetes node
// selector requirement ({key, operator, values}), which people carry over
// from a Pod's node affinity.
func nodeSelectorForm(list *yaml.Node) bool {
	if len(list.Content) == 0 || list.Content[0].Kind != yaml.MappingNode {
		return false
	}
	m := list.Content[0]
	return yamlstrict.Value(m, "key") != nil && yamlstrict.Value(m, "operator") != nil
}
