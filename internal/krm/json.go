package krm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// writeJSON writes a list that was read from JSON: the input object with
// its items and results replaced, every other key kept in place, indented.
// Items and results become small trees one at a time; the compact text is
// then indented in one linear pass.
func (rl *ResourceList) writeJSON(w io.Writer, results []*framework.Result) error {
	items, res := &yaml.Node{Kind: yaml.SequenceNode}, &yaml.Node{Kind: yaml.SequenceNode}
	for _, it := range rl.Items {
		if it.written() {
			items.Content = append(items.Content, it.Node)
		}
	}
	res.Content = append(res.Content, rl.Results...)
	for _, r := range results {
		res.Content = append(res.Content, resultNode(r))
	}
	return writeJSONNode(w, rl.wholeTop(items, res, len(res.Content) > 0))
}

// writeJSONNode writes n as indented JSON, keeping the order of mapping keys.
func writeJSONNode(w io.Writer, n *yaml.Node) error {
	var compact bytes.Buffer
	if err := appendJSON(&compact, n); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

func appendJSON(w *bytes.Buffer, n *yaml.Node) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			w.WriteString("null")
			return nil
		}
		return appendJSON(w, n.Content[0])
	case yaml.MappingNode:
		w.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				w.WriteByte(',')
			}
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a mapping key that is not a string has no JSON form", k.Line)
			}
			appendJSONString(w, k.Value)
			w.WriteByte(':')
			if err := appendJSON(w, n.Content[i+1]); err != nil {
				return err
			}
		}
		w.WriteByte('}')
	case yaml.SequenceNode:
		w.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := appendJSON(w, c); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	default:
		appendJSONScalar(w, n)
	}
	return nil
}

// appendJSONScalar writes a scalar as its YAML type says: booleans,
// numbers and null as such, everything else (timestamps included) as the
// string it was written as.
func appendJSONScalar(w *bytes.Buffer, n *yaml.Node) {
	switch n.ShortTag() {
	case "!!null":
		w.WriteString("null")
		return
	case "!!bool", "!!int", "!!float":
		var v any
		if n.Decode(&v) == nil {
			if b, err := json.Marshal(v); err == nil {
				w.Write(b)
				return
			}
		}
	}
	appendJSONString(w, n.Value)
}

// appendJSONString writes s as a JSON string, leaving <, > and & as they
// are (json.Marshal would escape them for HTML).
func appendJSONString(w *bytes.Buffer, s string) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes; writing to a Buffer cannot fail
	w.Truncate(w.Len() - 1) // Encode ends with a newline
}
