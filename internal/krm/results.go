package krm

import (
	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"
)

// resultNode is res as a YAML tree; a result that does not encode (it
// cannot: every field is a string, number or map of strings) is written
// as its message.
func resultNode(res *sdk.Result) *yaml.Node {
	var n yaml.Node
	if err := n.Encode(res); err != nil {
		return mapping(StrNode("message"), StrNode(res.Message))
	}
	return &n
}
