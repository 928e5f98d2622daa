package yamlstrict

import "go.yaml.in/yaml/v3"

// Value returns the value node of key in mapping m, following aliases, or
// nil when m is not a mapping or has no such key.
func Value(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return Resolve(m.Content[i+1])
		}
	}
	return nil
}

// Mapping returns the mapping at key in m, or nil.
func Mapping(m *yaml.Node, key string) *yaml.Node {
	if v := Value(m, key); v != nil && v.Kind == yaml.MappingNode {
		return v
	}
	return nil
}

// Scalar returns the scalar at key in m; "" when absent, null or not a
// scalar.
func Scalar(m *yaml.Node, key string) string {
	v := Value(m, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return ""
	}
	return v.Value
}

// StringMap reads a mapping of scalars; entries that are not scalars are
// left out. It returns nil when m is not a mapping.
func StringMap(m *yaml.Node) map[string]string {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	out := make(map[string]string, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if v := Resolve(m.Content[i+1]); v.Kind == yaml.ScalarNode {
			out[m.Content[i].Value] = v.Value
		}
	}
	return out
}
