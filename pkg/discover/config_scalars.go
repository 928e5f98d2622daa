package discover

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// scalarKind says how nfd-worker turns a YAML scalar at some place of its
// configuration or custom rules into a string.
type scalarKind int

const (
	// scalarNone: the value is not a string (or not one nfd-fn checks).
	scalarNone scalarKind = iota
	// scalarString: a Go string field, list item or map value, filled by
	// sigs.k8s.io/yaml: YAML 1.1 numbers and booleans become their decimal
	// or "true"/"false" text (floats at float32 precision), null "".
	scalarString
	// scalarMatchValue: an expression's value, read by the custom-rule
	// API's own decoder: numbers go through a float64 and are written in
	// full, booleans as "true"/"false".
	scalarMatchValue
	// scalarKey: a mapping key, turned into a string as sigs.k8s.io/yaml
	// turns YAML 1.1 keys into JSON object keys.
	scalarKey
)

// rereadProblem reports an unquoted scalar n that nfd-worker reads as a
// string other than its text ("0300" is "192", "yes" is "true", "1.10" is
// "1.1", "~" is ""), at path.
func rereadProblem(n *yaml.Node, kind scalarKind, path string) (fieldProblem, bool) {
	if kind == scalarNone || n.Kind != yaml.ScalarNode || n.Style != 0 || n.Value == "" || strings.ContainsAny(n.Value, "\n\r") {
		return fieldProblem{}, false
	}
	got, ok := workerScalar(kind, n.Value)
	if !ok || got == n.Value {
		return fieldProblem{}, false
	}
	if kind != scalarKey && isYAML11Null(n.Value) {
		msg := fmt.Sprintf("nfd-worker reads the unquoted value %s as null, which leaves the value as it was (empty, or the default it overlays); quote it to mean %q", n.Value, n.Value)
		return fieldProblem{path: path, line: n.Line, column: n.Column, msg: msg, reread: true}, true
	}
	what := "a number"
	if got == "true" || got == "false" {
		what = "a boolean"
	}
	subject := "the unquoted value"
	if kind == scalarKey {
		subject = "the unquoted key"
	}
	msg := fmt.Sprintf("nfd-worker reads %s %s as %q (YAML 1.1 takes it for %s); quote it to mean %q", subject, n.Value, got, what, n.Value)
	return fieldProblem{path: path, line: n.Line, column: n.Column, msg: msg, reread: true}, true
}

// isYAML11Null reports whether a plain scalar is null to YAML 1.1.
func isYAML11Null(text string) bool {
	switch text {
	case "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// workerScalar returns the string nfd-worker makes of the plain scalar
// text at a place of the given kind, by reading it the way nfd-worker
// reads it (sigs.k8s.io/yaml, the same release nfd-worker v0.19 uses).
// ok is false when nfd-worker would not accept it there.
func workerScalar(kind scalarKind, text string) (string, bool) {
	switch kind {
	case scalarString:
		var v struct {
			V string `json:"v"`
		}
		if err := sigsyaml.Unmarshal([]byte("v: "+text), &v); err != nil {
			return "", false
		}
		return v.V, true
	case scalarMatchValue:
		var v struct {
			V matchValue `json:"v"`
		}
		if err := sigsyaml.Unmarshal([]byte("v: "+text), &v); err != nil || len(v.V) != 1 {
			return "", false
		}
		return v.V[0], true
	case scalarKey:
		var m map[string]any
		if err := sigsyaml.Unmarshal([]byte(text+": x"), &m); err != nil || len(m) != 1 {
			return "", false
		}
		for k := range m {
			return k, true
		}
	}
	return "", false
}
