package admission

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// requiredValue is the API server's detail for a required field that is
// missing.
const requiredValue = "Required value"

// Problem is a field an object's schema refuses: the object is rejected.
type Problem struct {
	// Field is the path of the field: spec.rules[0].name.
	Field string
	// Value is the refused value ("" for a missing field).
	Value string
	// Detail is the API server's wording: `Unsupported value: "Ge":
	// supported values: "In", ...`, `Required value`, ...
	Detail string
}

// String is the problem as the API server prints it.
func (p Problem) String() string { return p.Field + ": " + p.Detail }

// Verdict is what a schema makes of an object.
type Verdict struct {
	// Problems are the fields the schema refuses; any rejects the object.
	Problems []Problem
	// Pruned are the paths of the fields the schema does not know.
	Pruned []string
	// pruned are the key nodes of those fields.
	pruned map[*yaml.Node]bool
}

// Rejected reports an object the API server refuses.
func (v *Verdict) Rejected() bool { return len(v.Problems) > 0 }

// topLevel are the fields of every object the server handles itself.
var topLevel = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// Check judges an object (a YAML mapping) against its kind's schema.
func Check(s *Schema, obj *yaml.Node) Verdict {
	v := Verdict{pruned: map[*yaml.Node]bool{}}
	obj = yamlstrict.Resolve(obj)
	if s == nil || obj == nil || obj.Kind != yaml.MappingNode {
		return v
	}
	for i := 0; i+1 < len(obj.Content); i += 2 {
		key := obj.Content[i].Value
		prop := s.Properties[key]
		switch {
		case topLevel[key] || isMerge(obj.Content[i]):
		case prop == nil && !s.PreserveUnknown:
			v.prune(obj.Content[i], key)
		case prop != nil:
			v.walk(prop, obj.Content[i+1], key)
		}
	}
	v.required(s, obj, "")
	return v
}

func (v *Verdict) prune(key *yaml.Node, path string) {
	v.pruned[key] = true
	v.Pruned = append(v.Pruned, path)
}

// pruneAll prunes what the server's pruning meets at path with no schema
// (yamlstrict.EachUnknownKey).
func (v *Verdict) pruneAll(n *yaml.Node, path string) {
	yamlstrict.EachUnknownKey(n, path, v.prune)
}

func (v *Verdict) problem(field, value, detail string) {
	v.Problems = append(v.Problems, Problem{Field: field, Value: value, Detail: detail})
}

// walk checks the value n at path against s.
func (v *Verdict) walk(s *Schema, n *yaml.Node, path string) {
	n = yamlstrict.Resolve(n)
	if n == nil || isNull(n) {
		return
	}
	if got := yamlstrict.JSONType(n); s.Type != "" && !yamlstrict.TypeAccepts(s.Type, got) {
		v.problem(path, got, objects.TypeInvalid(path, s.Type, got))
		v.pruneAll(n, path) // the server's pruning knows none of its keys
		return
	}
	switch s.Type {
	case "object":
		v.object(s, n, path)
	case "array":
		for i, item := range n.Content {
			if s.Items != nil {
				v.walk(s.Items, item, fmt.Sprintf("%s[%d]", path, i))
			} else {
				v.pruneAll(item, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	default:
		v.enum(s, n, path)
	}
}

func (v *Verdict) object(s *Schema, n *yaml.Node, path string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i].Value
		field := path + "." + key
		switch prop := s.Properties[key]; {
		case isMerge(n.Content[i]):
			// A YAML merge key: its fields are the object's own once
			// decoded; the decoder judges them.
		case prop != nil:
			v.walk(prop, n.Content[i+1], field)
		case s.AdditionalProperties != nil:
			v.walk(s.AdditionalProperties, n.Content[i+1], field)
		case !s.PreserveUnknown:
			v.prune(n.Content[i], field)
		}
	}
	v.required(s, n, path+".")
}

func (v *Verdict) required(s *Schema, n *yaml.Node, prefix string) {
	for i := 0; i < len(n.Content); i += 2 {
		if isMerge(n.Content[i]) {
			return // the merged fields may hold it
		}
	}
	for _, name := range s.Required {
		if value := lookup(n, name); value == nil || isNull(value) {
			v.problem(prefix+name, "", requiredValue)
		}
	}
}

func (v *Verdict) enum(s *Schema, n *yaml.Node, path string) {
	if len(s.Enum) == 0 {
		return
	}
	quoted := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		if fmt.Sprint(e) == n.Value {
			return
		}
		quoted[i] = strconv.Quote(fmt.Sprint(e))
	}
	v.problem(path, n.Value, fmt.Sprintf("Unsupported value: %q: supported values: %s", n.Value, strings.Join(quoted, ", ")))
}

func isMerge(key *yaml.Node) bool { return key.ShortTag() == "!!merge" }

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func lookup(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// Prune returns a copy of obj without the fields the verdict prunes; obj
// itself when there are none.
func (v *Verdict) Prune(obj *yaml.Node) *yaml.Node {
	if len(v.pruned) == 0 {
		return obj
	}
	return v.copy(obj)
}

func (v *Verdict) copy(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = nil
	for i := 0; i < len(n.Content); i++ {
		if n.Kind == yaml.MappingNode && i%2 == 0 && v.pruned[n.Content[i]] {
			i++
			continue
		}
		c.Content = append(c.Content, v.copy(n.Content[i]))
	}
	return &c
}
