package yamlstrict

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// JSONType is the type of n's value once a client has sent it as JSON,
// in the words of the API server's schema validator: object, array,
// integer, number, boolean or string. kubectl and Helm read YAML 1.1, so
// an unquoted yes, no, on, off, y or n is a boolean.
func JSONType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	}
	if n.Tag == "!!str" && n.Style&^yaml.FlowStyle == 0 && IsYAML11Bool(n.Value) {
		return "boolean"
	}
	switch n.ShortTag() {
	case "!!int":
		return "integer"
	case "!!float":
		return "number"
	case "!!bool":
		return "boolean"
	}
	return "string"
}

// TypeAccepts reports whether a schema of type want takes a value of JSON
// type got: the same type, or an integer where a number goes.
func TypeAccepts(want, got string) bool {
	return want == got || (want == "number" && got == "integer")
}

// mistyped fails a value of the wrong type at path: want is the schema
// type the field takes. The error carries both types (Want, Got) when the
// API server would refuse the value for its type too.
func (s *state) mistyped(n *yaml.Node, path, want, format string, args ...any) {
	s.fail(n, path, format, args...)
	if got := JSONType(n); !TypeAccepts(want, got) {
		e := s.errs[len(s.errs)-1]
		e.Want, e.Got = want, got
		EachUnknownKey(n, ServerPath(path), func(_ *yaml.Node, p string) { e.Pruned = append(e.Pruned, p) })
	}
}

// EachUnknownKey calls f with each key, and its path as the API server
// writes it, that the server's pruning finds unknown in n at path when
// its schema there takes no object (a value of the wrong type, the items
// of a list whose schema gives none): every key of a mapping, and of the
// mappings in a list, at any depth of lists (matchExpressions written as
// a list of {key, operator, values}). Aliases are followed.
func EachUnknownKey(n *yaml.Node, path string, f func(key *yaml.Node, path string)) {
	n = Resolve(n)
	switch {
	case n == nil:
	case n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			f(n.Content[i], path+"."+n.Content[i].Value)
		}
	case n.Kind == yaml.SequenceNode:
		for i, c := range n.Content {
			EachUnknownKey(c, path+"["+strconv.Itoa(i)+"]", f)
		}
	}
}

// ServerPath writes a field path as the API server's schema validator
// does: a map key JoinKey bracketed (labels["example.com/a"]) is joined
// with a dot, unquoted (labels.example.com/a); list indexes stay.
func ServerPath(path string) string {
	var b strings.Builder
	for {
		i := strings.Index(path, `["`)
		if i < 0 {
			break
		}
		q, err := strconv.QuotedPrefix(path[i+1:])
		rest := path[i+1+len(q):]
		key, uerr := strconv.Unquote(q)
		if err != nil || uerr != nil || !strings.HasPrefix(rest, "]") {
			break
		}
		b.WriteString(path[:i] + "." + key)
		path = rest[1:]
	}
	b.WriteString(path)
	return b.String()
}
