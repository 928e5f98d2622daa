// Package yamlstrict decodes YAML nodes into Go structs strictly: unknown
// fields, wrong kinds and non-string scalars where strings are expected are
// errors that name the exact field path (spec.rules[2].matchFeatures[0]...).
//
// Struct fields are matched by their json tag names, so the same types serve
// JSON and YAML. Unlike a YAML-to-JSON round trip, every problem is reported
// with its path and line, and all problems are reported, not only the first.
package yamlstrict

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// FieldError is one decoding problem at a field path.
type FieldError struct {
	// Path is the field path relative to the decoded object, e.g.
	// spec.rules[0].matchFeatures[1].matchExpressions.vendor.op.
	Path string
	// Line and Column are 1-based positions in the source document, 0 if
	// unknown.
	Line, Column int
	// Msg says what is wrong.
	Msg string
	// Meant is, for an unknown field that is the misspelling of a known
	// one, that field's path: the value the user wrote is missing there.
	Meant string
	// Stored marks a value the API server takes but stores otherwise than
	// written (a YAML 1.1 boolean as a key): the decoded value is what it
	// stores, and the object is not refused for it.
	Stored bool
	// Want and Got are, for a value of the wrong type the API server
	// refuses too, the schema type of the field and the JSON type of the
	// value (string and integer); empty otherwise.
	Want, Got string
	// Pruned are, for a mapping where the schema takes no object, the
	// paths (as the API server writes them) of its keys: the server's
	// pruning knows none of them, so they are unknown fields to it.
	Pruned []string
}

func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Hints lets an API package give better messages for its common mistakes.
type Hints interface {
	// UnknownField returns extra advice for an unknown key in a struct of type t.
	UnknownField(t reflect.Type, key string) string
	// WrongKind returns a message for a node of the wrong YAML kind decoded
	// into type t, or "" for the generic message.
	WrongKind(t reflect.Type, n *yaml.Node) string
}

// Decoder decodes YAML nodes into typed values.
type Decoder struct {
	hints  Hints
	yaml11 bool
}

// NewDecoder returns a Decoder using hints (which may be nil).
func NewDecoder(hints Hints) *Decoder { return &Decoder{hints: hints} }

// RefusingYAML11Booleans returns a copy of d that also refuses, where a
// string is expected, the plain scalars YAML 1.1 reads as booleans (yes,
// no, on, off, y, n; see IsYAML11Bool). yaml.v3 reads them as strings, but
// kubectl and Helm convert YAML with sigs.k8s.io/yaml, a YAML 1.1 reader,
// and send a boolean that the API server's string schema refuses.
func (d *Decoder) RefusingYAML11Booleans() *Decoder {
	c := *d
	c.yaml11 = true
	return &c
}

// Decode decodes n into out (a non-nil pointer). Paths in the returned errors
// start with base. It returns every problem found.
func (d *Decoder) Decode(n *yaml.Node, out any, base string) []*FieldError {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		panic("yamlstrict: Decode needs a non-nil pointer")
	}
	st := &state{d: d}
	st.decode(Resolve(n), v.Elem(), base)
	return st.errs
}

type state struct {
	d    *Decoder
	errs []*FieldError
}

func (s *state) fail(n *yaml.Node, path, format string, args ...any) {
	e := &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	s.errs = append(s.errs, e)
}

// Resolve follows aliases to the node they name and unwraps a document
// to its one root node: the node a decoder reads in n's place.
func Resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		return Resolve(n.Content[0])
	}
	return n
}

// IsNull reports whether n is an explicit or implicit YAML null.
func IsNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

func (s *state) decode(n *yaml.Node, v reflect.Value, path string) {
	if IsNull(n) {
		v.SetZero()
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		s.decode(n, p.Elem(), path)
		v.Set(p)
	case reflect.Struct:
		s.decodeStruct(n, v, path)
	case reflect.Map:
		s.decodeMap(n, v, path)
	case reflect.Slice:
		s.decodeSlice(n, v, path)
	case reflect.String:
		s.decodeString(n, v, path)
	case reflect.Bool:
		s.decodeBool(n, v, path)
	case reflect.Int, reflect.Int64:
		s.decodeInt(n, v, path)
	case reflect.Float64:
		s.decodeFloat(n, v, path)
	case reflect.Interface:
		s.decodeAny(n, v, path)
	default:
		panic("yamlstrict: unsupported kind " + v.Kind().String())
	}
}

func (s *state) wrongKind(n *yaml.Node, t reflect.Type, path, want string) {
	schemaType := map[string]string{"a mapping": "object", "a list": "array", "a string": "string"}[want]
	if s.d.hints != nil {
		if msg := s.d.hints.WrongKind(t, n); msg != "" {
			s.mistyped(n, path, schemaType, "%s", msg)
			return
		}
	}
	s.mistyped(n, path, schemaType, "expected %s, got %s", want, Describe(n))
}

// Describe names a node's kind for messages: "a mapping", "a list",
// "nothing" for null, or a scalar's type and value (int "3").
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%s %q", strings.TrimPrefix(n.Tag, "!!"), n.Value)
	}
	return "an unexpected node"
}

func (s *state) decodeStruct(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		s.wrongKind(n, v.Type(), path, "a mapping")
		return
	}
	fields := structFields(v.Type())
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], Resolve(n.Content[i+1])
		if s.nonScalarKey(k, path) {
			continue
		}
		key := k.Value
		sub := Join(path, key)
		if seen[key] {
			s.fail(k, sub, "duplicate field %q", key)
			continue
		}
		seen[key] = true
		idx, ok := fields[key]
		if !ok && ignoredField(v, key) {
			continue
		}
		if !ok {
			msg := fmt.Sprintf("unknown field %q", key)
			if h := s.unknownFieldHint(v.Type(), key, fields); h != "" {
				msg += ": " + h
			}
			s.fail(k, sub, "%s", msg)
			if best := closestField(key, fields); best != "" {
				s.errs[len(s.errs)-1].Meant = Join(path, best)
			}
			continue
		}
		if IsNull(val) && required(v.Type(), idx) {
			s.fail(val, sub, "Required value: the API server drops a null in a field that is not nullable, then refuses the object for the missing field")
			continue
		}
		s.decode(val, v.Field(idx), sub)
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if idx := fields[name]; !seen[name] && required(v.Type(), idx) {
			s.fail(n, Join(path, name), "Required value")
		}
	}
}

// required reports a struct field tagged `yamlstrict:"required"`: the
// CRD requires it, so a document without it, or with it null, is refused
// by the API server.
func required(t reflect.Type, idx int) bool {
	return t.Field(idx).Tag.Get("yamlstrict") == "required"
}

// IgnoredFields is implemented by a struct type whose YAML may hold more
// fields than it decodes: fields someone else owns (the API server's
// metadata), accepted as they are and not decoded.
type IgnoredFields interface {
	IgnoredFields() map[string]bool
}

var ignoredFieldsType = reflect.TypeOf((*IgnoredFields)(nil)).Elem()

func ignoredField(v reflect.Value, key string) bool {
	if !v.Type().Implements(ignoredFieldsType) {
		return false
	}
	return v.Interface().(IgnoredFields).IgnoredFields()[key]
}

// unknownFieldHint asks the hints first, then suggests the closest known
// field name for a likely misspelling.
func (s *state) unknownFieldHint(t reflect.Type, key string, fields map[string]int) string {
	if s.d.hints != nil {
		if h := s.d.hints.UnknownField(t, key); h != "" {
			return h
		}
	}
	if best := closestField(key, fields); best != "" {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return ""
}

// closestField is the known field a key is likely a misspelling of, or "".
func closestField(key string, fields map[string]int) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	return suggest.Closest(key, names)
}

var fieldCache sync.Map // reflect.Type -> map[string]int

func structFields(t reflect.Type) map[string]int {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = i
	}
	fieldCache.Store(t, m)
	return m
}

// nonScalarKey reports a mapping key that is not a scalar ({a: b}: ..., or
// a Helm line "{{ .Values.x }}:", which YAML reads as a flow mapping): it
// has no name (YAML libraries read it as ""), and the API server's JSON
// cannot hold it. It is an error at the key.
func (s *state) nonScalarKey(k *yaml.Node, path string) bool {
	if Resolve(k).Kind == yaml.ScalarNode {
		return false
	}
	hint := ""
	if k.Kind == yaml.MappingNode && len(k.Content) > 0 && k.Content[0].Kind == yaml.MappingNode {
		hint = " ({{ }} is a Helm template expression: check what helm template renders)"
	}
	s.fail(k, path, "a key here must be a string, got %s%s: the key has no name", Describe(k), hint)
	return true
}

func (s *state) decodeMap(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		s.wrongKind(n, v.Type(), path, "a mapping")
		return
	}
	m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
	et := v.Type().Elem()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], Resolve(n.Content[i+1])
		if s.nonScalarKey(k, path) {
			continue
		}
		sub := JoinKey(path, k.Value)
		key := s.storedKey(k, sub)
		if m.MapIndex(reflect.ValueOf(key)).IsValid() {
			s.fail(k, sub, "duplicate key %q", key)
			continue
		}
		ev := reflect.New(et).Elem()
		s.decode(val, ev, sub)
		m.SetMapIndex(reflect.ValueOf(key).Convert(v.Type().Key()), ev)
	}
	v.Set(m)
}

func (s *state) decodeSlice(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.SequenceNode {
		s.wrongKind(n, v.Type(), path, "a list")
		return
	}
	sl := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, c := range n.Content {
		s.decode(Resolve(c), sl.Index(i), fmt.Sprintf("%s[%d]", path, i))
	}
	v.Set(sl)
}

func (s *state) decodeString(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.ScalarNode {
		s.wrongKind(n, v.Type(), path, "a string")
		return
	}
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
	if n.Tag != "!!str" && n.Tag != "!" && !quoted {
		s.mistyped(n, path, "string", "expected a string, got %s %s: quote it (\"%s\")",
			strings.TrimPrefix(n.Tag, "!!"), n.Value, n.Value)
		return
	}
	if s.d.yaml11 && n.Tag == "!!str" && n.Style&^yaml.FlowStyle == 0 && IsYAML11Bool(n.Value) {
		s.mistyped(n, path, "string", "expected a string, got the unquoted %s, which kubectl and Helm (YAML 1.1) send as a boolean: quote it (\"%s\")",
			n.Value, n.Value)
		return
	}
	v.SetString(n.Value)
}

func (s *state) decodeBool(n *yaml.Node, v reflect.Value, path string) {
	b, err := strconv.ParseBool(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		s.mistyped(n, path, "boolean", "expected true or false, got %s", Describe(n))
		return
	}
	v.SetBool(b)
}

func (s *state) decodeInt(n *yaml.Node, v reflect.Value, path string) {
	i, err := strconv.ParseInt(n.Value, 10, 64)
	if n.Kind != yaml.ScalarNode || err != nil {
		s.mistyped(n, path, "integer", "expected an integer, got %s", Describe(n))
		return
	}
	v.SetInt(i)
}

func (s *state) decodeFloat(n *yaml.Node, v reflect.Value, path string) {
	f, err := strconv.ParseFloat(n.Value, 64)
	if n.Kind != yaml.ScalarNode || err != nil || (n.Tag != "!!float" && n.Tag != "!!int") {
		s.mistyped(n, path, "number", "expected a number, got %s", Describe(n))
		return
	}
	v.SetFloat(f)
}

// decodeAny decodes free-form data (such as metadata kept as a map) with
// YAML's own rules; anything is accepted.
func (s *state) decodeAny(n *yaml.Node, v reflect.Value, path string) {
	var x any
	if err := n.Decode(&x); err != nil {
		s.fail(n, path, "%v", err)
		return
	}
	if x == nil {
		v.SetZero()
		return
	}
	v.Set(reflect.ValueOf(x))
}

// Join appends a field name to a field path.
func Join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// JoinKey appends a map key to a field path, bracketing keys that are not
// plain identifiers (label names with dots or slashes, for instance) so the
// path stays unambiguous.
func JoinKey(path, key string) string {
	if isPlainKey(key) {
		return Join(path, key)
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func isPlainKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
