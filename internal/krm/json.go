package krm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// writeJSON writes a list that was read from JSON: the input object with
// its items and results replaced, every other key kept in place, indented.
// Items and results become small trees one at a time; the compact text is
// then indented in one linear pass.
func (rl *ResourceList) writeJSON(w io.Writer, results []*sdk.Result) error {
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
	text, err := jsonText(n, "")
	if err != nil {
		return err
	}
	_, err = w.Write(append(text, '\n'))
	return err
}

// jsonWriteOptions make a jsontext.Encoder write what json.Indent(prefix,
// "  ") makes of json.Marshal's output with HTML escaping off: a member
// or element a line, two spaces an indentation level, a space after the
// colon, U+2028 and U+2029 escaped. Strings that are not UTF-8 are
// written as encoding/json writes them (PreserveRawStrings keeps its
// \ufffd), and keys given twice are kept, as in the tree.
var jsonWriteOptions = []jsontext.Options{
	jsontext.Multiline(true), jsontext.WithIndent("  "), jsontext.EscapeForJS(true),
	jsontext.AllowDuplicateNames(true), jsontext.PreserveRawStrings(true),
}

// jsonText is n as indented JSON, its lines after the first starting
// with prefix.
func jsonText(n *yaml.Node, prefix string) ([]byte, error) {
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out, slices.Concat(jsonWriteOptions, []jsontext.Options{jsontext.WithIndentPrefix(prefix)})...)
	if err := encodeJSON(enc, n); err != nil {
		return nil, fmt.Errorf("writing JSON: %w", err)
	}
	return bytes.TrimSuffix(out.Bytes(), []byte{'\n'}), nil // the encoder ends a top-level value with one
}

// encodeJSON writes n to enc: mappings as objects in their key order,
// sequences as arrays, scalars as jsonScalar says.
func encodeJSON(enc *jsontext.Encoder, n *yaml.Node) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return enc.WriteToken(jsontext.Null)
		}
		return encodeJSON(enc, n.Content[0])
	case yaml.MappingNode:
		if err := enc.WriteToken(jsontext.BeginObject); err != nil {
			return err
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a mapping key that is not a string has no JSON form", k.Line)
			}
			if err := encodeJSONString(enc, k.Value); err != nil {
				return err
			}
			if err := encodeJSON(enc, n.Content[i+1]); err != nil {
				return err
			}
		}
		return enc.WriteToken(jsontext.EndObject)
	case yaml.SequenceNode:
		if err := enc.WriteToken(jsontext.BeginArray); err != nil {
			return err
		}
		for _, c := range n.Content {
			if err := encodeJSON(enc, c); err != nil {
				return err
			}
		}
		return enc.WriteToken(jsontext.EndArray)
	}
	if v := jsonScalar(n); v != nil {
		return enc.WriteValue(v)
	}
	return encodeJSONString(enc, n.Value)
}

// jsonScalar is a scalar's JSON text as its YAML type says: null,
// booleans and numbers as such; nil for everything else (timestamps
// included), which is written as the string it was written as. A number
// written as JSON writes it (what a JSON input holds) is written as it
// is, byte for byte, whatever its size or precision; any other (YAML's
// 0x1F, +1, 1_000, .inf) as encoding/json writes the value YAML decodes.
func jsonScalar(n *yaml.Node) jsontext.Value {
	switch n.ShortTag() {
	case "!!null":
		return jsontext.Value("null")
	case "!!int", "!!float":
		if isJSONNumber(n.Value) {
			return jsontext.Value(n.Value)
		}
	}
	switch n.ShortTag() {
	case "!!bool", "!!int", "!!float":
		var v any
		if n.Decode(&v) == nil {
			if b, err := json.Marshal(v); err == nil {
				return b
			}
		}
	}
	return nil
}

// isJSONNumber reports text in JSON's number form.
func isJSONNumber(text string) bool {
	end, ok := jsonNumber([]byte(text), 0)
	return ok && end == len(text)
}

// encodeJSONString writes s as a JSON string. Text that is not UTF-8
// is written as encoding/json writes it, each bad byte as \ufffd (the
// encoder would put the character itself).
func encodeJSONString(enc *jsontext.Encoder, s string) error {
	if utf8.ValidString(s) {
		return enc.WriteToken(jsontext.String(s))
	}
	var b bytes.Buffer
	appendJSONString(&b, s)
	return enc.WriteValue(b.Bytes())
}

// appendJSONString writes s as a JSON string, leaving <, > and & as they
// are (json.Marshal would escape them for HTML).
func appendJSONString(w *bytes.Buffer, s string) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes; writing to a Buffer cannot fail
	w.Truncate(w.Len() - 1) // Encode ends with a newline
}

// writeJSONStream writes a list splitJSON cut, as writeJSON writes one
// parsed whole, but an item at a time: the sections in input order with
// items in place, the defaults for a missing apiVersion and kind, and the
// results. Items are made on the worker pool as the YAML writer makes
// them (writeMade), the tail is written as it is made, and the results
// are asked for only once every item is written: in place when the input
// has them after its items, else last (where writeJSON would keep them
// before the items).
func (rl *ResourceList) writeJSONStream(w *bufio.Writer, results func() []*sdk.Result) error {
	jw := &jsonListWriter{rl: rl, top: jsonObject{w: w}, results: results, wrote: map[string]bool{}}
	w.WriteByte('{')
	for _, s := range rl.sp.sections {
		if err := jw.section(s); err != nil {
			return err
		}
	}
	if err := jw.finish(); err != nil {
		return err
	}
	w.WriteString("\n}\n")
	return nil
}

// jsonListWriter is the state of writeJSONStream.
type jsonListWriter struct {
	rl      *ResourceList
	top     jsonObject
	results func() []*sdk.Result
	// wrote records the header keys written; items and wroteResults
	// say whether those are.
	wrote               map[string]bool
	items, wroteResults bool
}

// section writes one top-level key of the input.
func (jw *jsonListWriter) section(s section) error {
	switch {
	case s.key == "items":
		return jw.writeItems()
	case s.key == "results" && !jw.items:
		return nil // written last, once the results are known
	case s.key == "results":
		return jw.writeResults(&s)
	}
	jw.wrote[s.key] = true
	v, err := s.value()
	if err != nil {
		return fmt.Errorf("writing the ResourceList's %s: %w", s.key, err)
	}
	return jw.top.entry(s.key, v)
}

// finish writes what the input's sections did not: a missing apiVersion
// and kind, the items, and the results.
func (jw *jsonListWriter) finish() error {
	for _, d := range []struct{ key, value string }{{"apiVersion", kio.ResourceListAPIVersion}, {"kind", kio.ResourceListKind}} {
		if !jw.wrote[d.key] {
			if err := jw.top.entry(d.key, StrNode(d.value)); err != nil {
				return err
			}
		}
	}
	if !jw.items {
		if err := jw.writeItems(); err != nil {
			return err
		}
	}
	if jw.wroteResults {
		return nil
	}
	i := slices.IndexFunc(jw.rl.sp.sections, func(s section) bool { return s.key == "results" })
	if i < 0 {
		return jw.writeResults(nil)
	}
	return jw.writeResults(&jw.rl.sp.sections[i])
}

// writeItems writes the items key.
func (jw *jsonListWriter) writeItems() error {
	jw.items = true
	jw.top.key("items")
	return jw.rl.writeJSONItems(jw.top.w)
}

// writeResults writes the results key: the input's results and the new
// ones, or, when there are none, the input's results section as it is
// (original; nil when it has none).
func (jw *jsonListWriter) writeResults(original *section) error {
	jw.wroteResults = true
	res := jw.results()
	if len(jw.rl.Results)+len(res) > 0 {
		return jw.rl.writeJSONResults(&jw.top, res)
	}
	if original == nil {
		return nil
	}
	v, err := original.value()
	if err != nil {
		return fmt.Errorf("writing the input's results: %w", err)
	}
	return jw.top.entry("results", v)
}

// jsonObject writes the entries of a JSON object at the top level, the
// comma between them included. It and jsonArray write by hand, not with
// a jsontext encoder, because the values come as text already indented
// for their place (the items made and re-indented on the worker pool),
// which an encoder would parse and format again, in the writer's one
// goroutine.
type jsonObject struct {
	w       *bufio.Writer
	entries int
}

// key starts an entry: the separator, the indented key and the colon.
func (o *jsonObject) key(k string) {
	if o.entries > 0 {
		o.w.WriteByte(',')
	}
	o.entries++
	o.w.WriteString("\n  ")
	var b bytes.Buffer
	appendJSONString(&b, k)
	o.w.Write(b.Bytes())
	o.w.WriteString(": ")
}

// entry writes one entry whose value is n.
func (o *jsonObject) entry(k string, n *yaml.Node) error {
	text, err := jsonText(n, "  ")
	if err != nil {
		return err
	}
	o.key(k)
	o.w.Write(text)
	return nil
}

// jsonArray writes the elements of an array that is the value of a
// top-level key.
type jsonArray struct {
	w        *bufio.Writer
	elements int
}

// next starts an element: the separator and the indentation.
func (a *jsonArray) next() {
	if a.elements > 0 {
		a.w.WriteByte(',')
	} else {
		a.w.WriteByte('[')
	}
	a.elements++
	a.w.WriteString("\n    ")
}

// close ends the array.
func (a *jsonArray) close() {
	if a.elements == 0 {
		a.w.WriteString("[]")
		return
	}
	a.w.WriteString("\n  ]")
}

// writeJSONItems writes the items array: every item as writeItem writes
// an item of a JSON list (jsonItemText), in the array's punctuation.
func (rl *ResourceList) writeJSONItems(w *bufio.Writer) error {
	arr := jsonArray{w: w}
	if err := rl.writeEvery(w, arr.next); err != nil {
		return err
	}
	arr.close()
	return nil
}

// writeJSONResults writes the results key: the input's results, then res.
func (rl *ResourceList) writeJSONResults(top *jsonObject, res []*sdk.Result) error {
	top.key("results")
	arr := jsonArray{w: top.w}
	write := func(n *yaml.Node) error {
		text, err := jsonText(n, jsonItemPrefix)
		if err != nil {
			return err
		}
		arr.next()
		top.w.Write(text)
		return nil
	}
	for _, n := range rl.Results {
		if err := write(n); err != nil {
			return fmt.Errorf("writing the input's results: %w", err)
		}
	}
	for _, r := range res {
		if err := write(resultNode(r)); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	arr.close()
	return nil
}

// jsonItemPrefix is the indentation of an item's lines in the output.
const jsonItemPrefix = "    "

// jsonItemText is the output text of an item of a JSON list: its own
// text re-indented when it is unchanged and in the form writeJSON gives
// (canonical: appendIndented), else its tree written as JSON.
func (rl *ResourceList) jsonItemText(it *Item) ([]byte, error) {
	if it.Raw != nil && !it.Changed {
		raw, ok := it.Raw, true
		if it.fromFile {
			// An object read from a file: its place annotations added to
			// its text (annotateJSON), else to its tree.
			raw, ok = annotateJSON(it.Raw, it.File, it.Index)
		}
		if ok {
			if text, ok := appendIndented(make([]byte, 0, len(raw)), raw, jsonItemPrefix); ok {
				return text, nil
			}
		}
		n, err := it.ParseTree()
		if err != nil {
			return nil, err
		}
		return rl.jsonTreeText(it, n)
	}
	return rl.jsonTreeText(it, it.Node)
}

// jsonTreeText is an item's tree n as JSON, with its place annotations
// when it was read from a file.
func (rl *ResourceList) jsonTreeText(it *Item, n *yaml.Node) ([]byte, error) {
	if it != nil && it.fromFile {
		annotatePlace(n, it.File, it.Index)
	}
	return jsonText(n, jsonItemPrefix)
}
