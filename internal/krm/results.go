package krm

import (
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// ErrorLines writes one line per error result to w: where (file, object,
// field), then the message. Orchestrators such as kustomize show a failing
// function's stderr but not its results.
func ErrorLines(w io.Writer, results []*framework.Result) {
	for _, res := range results {
		if res.Severity != framework.Error {
			continue
		}
		where := ""
		if res.File != nil && res.File.Path != "" {
			where = res.File.Path + ": "
		}
		if ref := res.ResourceRef; ref != nil {
			where += ref.Kind + "/" + ref.Name + " "
		}
		if res.Field != nil && res.Field.Path != "" {
			where += res.Field.Path + ": "
		} else if where != "" {
			where = strings.TrimSuffix(where, " ") + ": "
		}
		fmt.Fprintf(w, "nfd-fn: error: %s%s\n", where, strings.TrimSpace(res.Message))
	}
}

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
