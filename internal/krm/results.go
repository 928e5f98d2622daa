package krm

import (
	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// resultNode is res as a YAML tree; a result that does not encode (it
// cannot: every field is a string, number or map of strings) is written
// as its message.
func resultNode(res *framework.Result) *yaml.Node {
	var n yaml.Node
	if err := n.Encode(res); err != nil {
		return mapping(StrNode("message"), StrNode(res.Message))
	}
	return &n
}
