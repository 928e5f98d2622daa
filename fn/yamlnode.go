package fn

import (
	"sort"

	"go.yaml.in/yaml/v3"
)

// valueAt returns the value node of key in mapping m, or nil.
func valueAt(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			for v.Kind == yaml.AliasNode {
				v = v.Alias
			}
			return v
		}
	}
	return nil
}

func mapAt(m *yaml.Node, key string) *yaml.Node {
	v := valueAt(m, key)
	if v == nil || v.Kind != yaml.MappingNode {
		return nil
	}
	return v
}

func scalarAt(m *yaml.Node, key string) string {
	v := valueAt(m, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return ""
	}
	return v.Value
}

// stringMap reads a mapping of scalars.
func stringMap(m *yaml.Node) map[string]string {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	out := make(map[string]string, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if v := m.Content[i+1]; v.Kind == yaml.ScalarNode {
			out[m.Content[i].Value] = v.Value
		}
	}
	return out
}

// ensureMap returns the mapping at key in m, creating it if needed.
func ensureMap(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			if v.Kind != yaml.MappingNode {
				*v = yaml.Node{Kind: yaml.MappingNode}
			}
			return v
		}
	}
	v := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, strNode(key), v)
	return v
}

// setField sets key to v in mapping m, in place if present.
func setField(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, strNode(key), v)
}

// removeField deletes key from mapping m.
func removeField(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// syncStringMap makes mapping m hold exactly want: kept keys stay where
// they are (with their comments), changed values are updated in place, and
// new keys are appended in sorted order. It reports whether m changed.
func syncStringMap(m *yaml.Node, want map[string]string) bool {
	changed := false
	have := map[string]bool{}
	kept := m.Content[:0:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		nv, ok := want[k.Value]
		if !ok {
			changed = true
			continue
		}
		have[k.Value] = true
		if v.Kind != yaml.ScalarNode || v.Value != nv {
			*v = *strNode(nv)
			changed = true
		}
		kept = append(kept, k, v)
	}
	var added []string
	for k := range want {
		if !have[k] {
			added = append(added, k)
		}
	}
	sort.Strings(added)
	for _, k := range added {
		kept = append(kept, strNode(k), strNode(want[k]))
		changed = true
	}
	m.Content = kept
	return changed
}

// strNode is a string scalar that always reads back as a string.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11Special[s] {
		// YAML 1.1 readers (kubectl, sigs.k8s.io/yaml) would read these
		// plain scalars as booleans; quote them.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

var yaml11Special = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

func mapNode(m map[string]string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	syncStringMap(n, m)
	return n
}
