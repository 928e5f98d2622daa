package krm

import (
	"bytes"
	"encoding/json"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// writeJSON writes n as indented JSON, keeping the order of mapping keys.
func writeJSON(w *bytes.Buffer, n *yaml.Node) error {
	var compact bytes.Buffer
	if err := appendJSON(&compact, n); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	if err := json.Indent(w, compact.Bytes(), "", "  "); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	w.WriteByte('\n')
	return nil
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
