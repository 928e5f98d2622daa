// Package fn is nfd-fn's KRM glue: it reads a ResourceList, hands the NFD
// objects to the engine and renderer in pkg/, writes Node objects and
// NodeFeatureGroup status back into the list, and turns every problem into
// a KRM result pointing at the file, object and field.
package fn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Internal annotations set by kpt and kustomize on every item.
const (
	pathAnnotation        = "internal.config.kubernetes.io/path"
	indexAnnotation       = "internal.config.kubernetes.io/index"
	legacyPathAnnotation  = "config.kubernetes.io/path"
	legacyIndexAnnotation = "config.kubernetes.io/index"
)

// item is one entry of ResourceList.items.
type item struct {
	// raw is the item's original text (fast path); nil when the item is
	// new or the input was parsed whole.
	raw []byte
	// node is the parsed item. It is dropped after decoding for items that
	// pass through untouched, to keep memory flat on large fleets.
	node *yaml.Node
	// changed marks items whose node must be re-encoded on output.
	changed bool
	// parseErr is set when the item is not valid YAML.
	parseErr error

	apiVersion, kind, name, namespace string
	file                              string
	index                             int
	// decoded holds the typed object for NFD kinds.
	decoded any
}

// resourceList is the parsed input.
type resourceList struct {
	items          []*item
	functionConfig *yaml.Node
	results        []*yaml.Node
	// sections are the raw top-level sections in input order (fast path).
	sections []section
	indent   int
	fast     bool
	// root is the whole parsed document (slow path), written back with
	// its items and results replaced; json marks input that was JSON, so
	// that the output is JSON too, as the KRM function spec asks.
	root *yaml.Node
	json bool
	// apiVersion and kind are the list's own header.
	apiVersion, kind string
}

// keepNode reports whether the parsed tree of an item of this kind must be
// kept after decoding (because nfd-fn may rewrite it).
type keepNode func(apiVersion, kind string) bool

// decodeFunc decodes an item's node into a typed object, in parallel.
type decodeFunc func(it *item)

// readResourceList parses the input. Items are parsed in parallel.
func readResourceList(data []byte, decode decodeFunc, keep keepNode) (*resourceList, error) {
	if sections, chunks, indent, ok := splitDocument(data); ok {
		rl := &resourceList{sections: sections, indent: indent, fast: true}
		rl.items = make([]*item, len(chunks))
		for i, c := range chunks {
			rl.items[i] = &item{raw: c}
		}
		parallel(len(chunks), func(i int) {
			it := rl.items[i]
			var doc yaml.Node
			if err := yaml.Unmarshal(itemBody(it.raw, indent), &doc); err != nil {
				it.parseErr = err
				return
			}
			it.setNode(docContent(&doc))
			decode(it)
			if !keep(it.apiVersion, it.kind) {
				it.node = nil
			}
		})
		for _, s := range sections {
			if err := rl.readSection(s); err != nil {
				return nil, err
			}
		}
		return rl, rl.checkHeader()
	}
	rl, err := readWhole(data, decode)
	if err != nil {
		return nil, err
	}
	return rl, rl.checkHeader()
}

// checkHeader refuses input that is not a list of items: a single object
// piped in by mistake would otherwise come back with an empty item list.
func (rl *resourceList) checkHeader() error {
	switch {
	case rl.kind == "ResourceList" && strings.HasPrefix(rl.apiVersion, "config.kubernetes.io/"):
		return nil
	case rl.kind == "List" && rl.apiVersion == "v1":
		return nil
	case rl.kind == "" && rl.apiVersion == "":
		return fmt.Errorf("input has no apiVersion and kind: nfd-fn reads a config.kubernetes.io/v1 ResourceList on stdin")
	}
	return fmt.Errorf("input is a %s %s, not a ResourceList: nfd-fn reads a config.kubernetes.io/v1 ResourceList on stdin (to check plain files, run nfd-fn validate FILE...)",
		rl.apiVersion, rl.kind)
}

// readSection parses a top-level section other than items. Every one is
// parsed, small as they are, so that a broken header is an error rather
// than echoed; only functionConfig and results are kept.
func (rl *resourceList) readSection(s section) error {
	if s.key == "items" {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(s.raw, &doc); err != nil {
		return fmt.Errorf("parsing the ResourceList's %s: %w", s.key, err)
	}
	m := docContent(&doc)
	if m != nil && len(m.Content) >= 2 && m.Content[1].Kind == yaml.ScalarNode {
		switch s.key {
		case "apiVersion":
			rl.apiVersion = m.Content[1].Value
		case "kind":
			rl.kind = m.Content[1].Value
		}
	}
	if m == nil || len(m.Content) < 2 || (s.key != "functionConfig" && s.key != "results") {
		return nil
	}
	v := m.Content[1]
	if s.key == "functionConfig" {
		rl.functionConfig = v
	} else if v.Kind == yaml.SequenceNode {
		rl.results = v.Content
	}
	return nil
}

// readWhole parses any ResourceList that the fast path does not handle:
// flow style, JSON, a list under another apiVersion or kind (v1beta1, a
// v1 List). It refuses a stream of several documents rather than drop all
// but the first.
func readWhole(data []byte, decode decodeFunc) (*resourceList, error) {
	root, err := parseOneDocument(data)
	if err != nil {
		return nil, err
	}
	rl := &resourceList{root: root, json: isJSON(data)}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		switch k {
		case "apiVersion":
			rl.apiVersion = v.Value
		case "kind":
			rl.kind = v.Value
		case "items":
			if v.Kind != yaml.SequenceNode && !yamlNull(v) {
				return nil, fmt.Errorf("ResourceList.items must be a list, got %s", kindName(v))
			}
			for _, n := range v.Content {
				it := &item{}
				it.setNode(n)
				rl.items = append(rl.items, it)
			}
		case "functionConfig":
			if !yamlNull(v) {
				rl.functionConfig = v
			}
		case "results":
			if v.Kind == yaml.SequenceNode {
				rl.results = v.Content
			}
		}
	}
	parallel(len(rl.items), func(i int) { decode(rl.items[i]) })
	return rl, nil
}

func docContent(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return doc.Content[0]
	}
	if doc.Kind == 0 {
		return nil
	}
	return doc
}

// setNode records the parsed item and its identity.
func (it *item) setNode(n *yaml.Node) {
	it.node = n
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	it.apiVersion = scalarAt(n, "apiVersion")
	it.kind = scalarAt(n, "kind")
	md := mapAt(n, "metadata")
	it.name = scalarAt(md, "name")
	it.namespace = scalarAt(md, "namespace")
	ann := mapAt(md, "annotations")
	it.file = scalarAt(ann, pathAnnotation)
	if it.file == "" {
		it.file = scalarAt(ann, legacyPathAnnotation)
	}
	idx := scalarAt(ann, indexAnnotation)
	if idx == "" {
		idx = scalarAt(ann, legacyIndexAnnotation)
	}
	it.index, _ = strconv.Atoi(idx)
}

// parallel runs f(0..n-1) on all CPUs.
func parallel(n int, f func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	var wg sync.WaitGroup
	next := make(chan int, workers*4)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// writeResourceList writes the output list: unchanged items as their
// original bytes, changed and new items re-encoded, then functionConfig
// and the results.
func writeResourceList(w *bytes.Buffer, rl *resourceList, results []*yaml.Node) error {
	all := append(append([]*yaml.Node(nil), rl.results...), results...)
	if !rl.fast {
		return writeWhole(w, rl, all)
	}
	wroteHeader := map[string]bool{}
	for _, s := range rl.sections {
		switch s.key {
		case "items":
			if err := rl.writeItems(w); err != nil {
				return err
			}
		case "results":
			// Written last, merged with ours.
		case "apiVersion", "kind":
			w.Write(withNewline(s.raw))
			wroteHeader[s.key] = true
		default:
			w.Write(withNewline(s.raw))
		}
	}
	if !wroteHeader["apiVersion"] {
		w.WriteString("apiVersion: config.kubernetes.io/v1\n")
	}
	if !wroteHeader["kind"] {
		w.WriteString("kind: ResourceList\n")
	}
	if !hasSection(rl.sections, "items") {
		if err := rl.writeItems(w); err != nil {
			return err
		}
	}
	if len(all) > 0 {
		return writeKeyValue(w, "results", &yaml.Node{Kind: yaml.SequenceNode, Content: all})
	}
	return nil
}

// writeWhole writes a list that was parsed whole: the input document with
// its items and results replaced, every other top-level key kept in place
// (so a v1beta1 list stays v1beta1), in block YAML, or in JSON when the
// input was JSON.
func writeWhole(w *bytes.Buffer, rl *resourceList, results []*yaml.Node) error {
	out := &yaml.Node{Kind: yaml.MappingNode, Content: append([]*yaml.Node(nil), rl.root.Content...)}
	items := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, 0, len(rl.items))}
	for _, it := range rl.items {
		items.Content = append(items.Content, it.node)
	}
	setDefault(out, "apiVersion", strNode("config.kubernetes.io/v1"))
	setDefault(out, "kind", strNode("ResourceList"))
	setField(out, "items", items)
	if len(results) > 0 {
		setField(out, "results", &yaml.Node{Kind: yaml.SequenceNode, Content: results})
	}
	if rl.json {
		return writeJSON(w, out)
	}
	text, err := encode(out)
	if err != nil {
		return err
	}
	w.Write(text)
	return nil
}

// setDefault sets key to v unless m already has it.
func setDefault(m *yaml.Node, key string, v *yaml.Node) {
	if valueAt(m, key) == nil {
		setField(m, key, v)
	}
}

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

func hasSection(ss []section, key string) bool {
	for _, s := range ss {
		if s.key == key {
			return true
		}
	}
	return false
}

func (rl *resourceList) writeItems(w *bytes.Buffer) error {
	if len(rl.items) == 0 {
		w.WriteString("items: []\n")
		return nil
	}
	w.WriteString("items:\n")
	for _, it := range rl.items {
		if it.raw != nil && !it.changed {
			w.Write(withNewline(it.raw))
			continue
		}
		if err := writeSeqItem(w, it.node, rl.indent); err != nil {
			return fmt.Errorf("writing %s %s: %w", it.kind, it.name, err)
		}
	}
	return nil
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b[:len(b):len(b)], '\n')
	}
	return b
}

// writeSeqItem encodes n as an element of a block sequence at indent.
func writeSeqItem(w *bytes.Buffer, n *yaml.Node, indent int) error {
	text, err := encode(n)
	if err != nil {
		return err
	}
	pad := bytes.Repeat([]byte{' '}, indent)
	for i, line := range splitLines(text) {
		w.Write(pad)
		if i == 0 {
			w.WriteString("- ")
		} else if len(bytes.TrimSpace(line)) > 0 {
			w.WriteString("  ")
		}
		w.Write(line)
	}
	return nil
}

func writeKeyValue(w *bytes.Buffer, key string, v *yaml.Node) error {
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: key}, v}}
	text, err := encode(m)
	if err != nil {
		return err
	}
	w.Write(text)
	return nil
}

func encode(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
