package krm

import (
	"bytes"
	"slices"
	"sort"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// ValueAt, MapAt, ScalarAt and StringMap read a mapping node; they are
// pkg/yamlstrict's accessors, the one copy of them.
var (
	ValueAt   = yamlstrict.Value
	MapAt     = yamlstrict.Mapping
	ScalarAt  = yamlstrict.Scalar
	StringMap = yamlstrict.StringMap
)

// EnsureMap returns the mapping at key in m, creating it (or replacing a
// value that is not a mapping) if needed. An alias of a mapping
// (annotations: *a) becomes a copy of what it stands for, so that what is
// added lands in this place alone and what the alias held is kept.
func EnsureMap(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			if t := aliasTarget(v); t != nil && t.Kind == yaml.MappingNode {
				*v = *unanchoredCopy(t)
			}
			if v.Kind != yaml.MappingNode {
				*v = yaml.Node{Kind: yaml.MappingNode}
			}
			return v
		}
	}
	v := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, StrNode(key), v)
	return v
}

// aliasTarget is the node an alias (*a) stands for, following aliases
// of aliases; nil when n is not an alias.
func aliasTarget(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.AliasNode {
		return nil
	}
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// unanchoredCopy is a deep copy of n without its anchors (the original
// keeps them; aliases inside stay aliases of it).
func unanchoredCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Anchor = ""
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = unanchoredCopy(k)
	}
	return &c
}

// SetField sets key to v in mapping m, in place if present, else at the end.
func SetField(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, StrNode(key), v)
}

// SetDefault sets key to v unless m already has it.
func SetDefault(m *yaml.Node, key string, v *yaml.Node) {
	if ValueAt(m, key) == nil {
		SetField(m, key, v)
	}
}

// RemoveField deletes key from mapping m.
func RemoveField(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// SyncStringMap makes mapping m hold exactly want: kept keys stay where
// they are (with their comments), changed values are updated in place, and
// new keys are appended in sorted order. It reports whether m changed.
func SyncStringMap(m *yaml.Node, want map[string]string) bool {
	changed := false
	kept := m.Content[:0:0]
	added, dropped := syncPlan(len(m.Content)/2, func(i int) string { return m.Content[2*i].Value }, want,
		func(i int, nv string) {
			k, v := m.Content[2*i], m.Content[2*i+1]
			if v.Kind != yaml.ScalarNode || v.Value != nv {
				*v = *StrNode(nv)
				changed = true
			}
			kept = append(kept, k, v)
		})
	for _, k := range added {
		kept = append(kept, StrNode(k), StrNode(want[k]))
	}
	m.Content = kept
	return changed || dropped || len(added) > 0
}

// syncPlan is the rule by which a map of n entries (entry i has key
// key(i)) is made to hold exactly want, on a tree (SyncStringMap) or in
// text (SyncMapText, SyncMapJSON): an entry whose key want lacks is
// dropped, the others are kept in their order, keep telling each (by its
// index) its wanted value, and the keys want has and the map lacks are
// added after them in key order (added). dropped says whether any entry
// was.
func syncPlan(n int, key func(i int) string, want map[string]string, keep func(i int, value string)) (added []string, dropped bool) {
	have := make(map[string]bool, n)
	for i := range n {
		k := key(i)
		v, in := want[k]
		if !in {
			dropped = true
			continue
		}
		have[k] = true
		keep(i, v)
	}
	for k := range want {
		if !have[k] {
			added = append(added, k)
		}
	}
	sort.Strings(added)
	return added, dropped
}

// StrNode is a string scalar that always reads back as a string.
func StrNode(s string) *yaml.Node {
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

// MapNode is a mapping of string scalars with its keys sorted.
func MapNode(m map[string]string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	SyncStringMap(n, m)
	return n
}

// DocContent returns the content of a parsed document node: its root, or
// nil for an empty document. Any other node is returned as it is.
func DocContent(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return doc.Content[0]
	}
	if doc.Kind == 0 {
		return nil
	}
	return doc
}

// IsNull reports whether n is a null scalar.
func IsNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// Encode writes n as block YAML indented by two spaces, as nfd-fn writes
// every object it creates.
func Encode(n *yaml.Node) ([]byte, error) {
	return encode(n, false)
}

// encode is Encode, with block sequences inside mappings written at the
// key's indentation when compact (the style kubectl and kustomize print).
func encode(n *yaml.Node, compact bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if compact {
		enc.CompactSeqIndent()
	}
	if err := enc.Encode(forEncoding(n)); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// forEncoding is n made ready for yaml.v3's encoder, which would change
// what two things mean. A null written as nothing inside a flow
// collection ({a: }, {0}) is spelt null: the encoder writes an empty
// quoted string there. An alias of a node outside n (an anchor another
// item of the list defines) becomes a copy of what it stands for: the
// encoder writes *name with no &name before it, which no reader takes. n
// itself is returned when it needs neither; otherwise the nodes on the
// way are copied, so that the caller's tree is left as it is.
func forEncoding(n *yaml.Node) *yaml.Node {
	var anchors map[*yaml.Node]bool
	needs := false
	var scan func(m *yaml.Node, flow bool)
	scan = func(m *yaml.Node, flow bool) {
		flow = flow || m.Style&yaml.FlowStyle != 0
		if m.Anchor != "" {
			if anchors == nil {
				anchors = map[*yaml.Node]bool{}
			}
			anchors[m] = true
		}
		needs = needs || m.Kind == yaml.AliasNode || flowNull(m, flow)
		for _, c := range m.Content {
			scan(c, flow)
		}
	}
	scan(n, false)
	if !needs {
		return n
	}
	return rewriteForEncoding(n, false, anchors)
}

// flowNull reports a null written as nothing, inside a flow collection.
func flowNull(n *yaml.Node, flow bool) bool {
	return flow && n.Kind == yaml.ScalarNode && n.Value == "" && n.Tag == "!!null" && (n.Style == 0 || n.Style == yaml.FlowStyle)
}

// rewriteForEncoding is forEncoding's copy of n: anchors are the nodes
// anchored inside the tree being encoded.
func rewriteForEncoding(n *yaml.Node, flow bool, anchors map[*yaml.Node]bool) *yaml.Node {
	flow = flow || n.Style&yaml.FlowStyle != 0
	switch {
	case n.Kind == yaml.AliasNode && n.Alias != nil && !anchors[n.Alias]:
		return rewriteForEncoding(unanchoredCopy(n.Alias), flow, anchors)
	case flowNull(n, flow):
		c := *n
		c.Value = "null"
		return &c
	}
	var content []*yaml.Node
	for i, k := range n.Content {
		r := rewriteForEncoding(k, flow, anchors)
		if r == k {
			continue
		}
		if content == nil {
			content = slices.Clone(n.Content)
		}
		content[i] = r
	}
	if content == nil {
		return n
	}
	c := *n
	c.Content = content
	return &c
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "the scalar " + strconv.Quote(n.Value)
	}
	return "something else"
}

// compactSequences reports whether an item's text writes block sequences
// inside mappings at the key's indentation ("key:" then "- x" in the same
// column), as kubectl prints objects: a changed item is then encoded in
// that style, so that what nfd-fn did not change keeps its bytes.
func compactSequences(raw []byte) bool {
	prevIndent, prevKey := -1, false
	for _, line := range bytes.Split(raw, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		indent := len(line) - len(trimmed)
		if bytes.HasPrefix(trimmed, []byte("- ")) && prevKey {
			return indent == prevIndent
		}
		prevIndent = indent
		prevKey = bytes.HasSuffix(bytes.TrimRight(trimmed, " "), []byte(":"))
		if prevKey && bytes.HasPrefix(trimmed, []byte("- ")) {
			// "- key:" opens a mapping inside a sequence entry: its keys
			// sit two columns right of the dash.
			prevIndent += 2
		}
	}
	return false
}
