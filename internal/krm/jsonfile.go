package krm

import (
	"bytes"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
)

// jsonEntry is the output text of an unchanged JSON object read from a
// file, in a list read from files (written as YAML): the object's own
// text as a YAML flow mapping (JSON is YAML), its path and index
// annotations added where annotatePlace adds them, indented under the
// entry's "- ". It reads as the tree path's output does (the differential
// TestJSONFileEntryReadsAsItsTree and FuzzJSONFileEntry check it), without
// a tree of the object; ok is false for text that is not canonical
// (canonicalJSON), whose metadata or annotations are not objects, or that
// already has a place annotation: the tree does those.
func (rl *ResourceList) jsonEntry(it *Item) ([]byte, bool) {
	text, ok := annotateJSON(it.Raw, it.File, it.Index)
	if !ok {
		return nil, false
	}
	pad := bytes.Repeat([]byte{' '}, rl.sp.indent)
	out := append(append(make([]byte, 0, len(text)+len(text)/4), pad...), "- "...)
	out, ok = appendIndented(out, text, string(pad)+"  ")
	if !ok {
		return nil, false
	}
	return append(out, '\n'), true
}

// annotateJSON returns a JSON object's text with the place annotations
// of file and index added to its metadata.annotations, making either
// when missing.
func annotateJSON(raw []byte, file string, index int) ([]byte, bool) {
	add := placeAnnotationsJSON(file, index)
	s := jsonScan{data: raw}
	top, ok := wholeObject(raw)
	if !ok {
		return nil, false
	}
	md, found, ok := top.member(&s, "metadata")
	switch {
	case !ok:
		return nil, false
	case !found:
		return insertJSON(raw, top, `"metadata": {"annotations": {`+add+`}}`), true
	}
	ann, found, ok := md.member(&s, "annotations")
	switch {
	case !ok:
		return nil, false
	case !found:
		return insertJSON(raw, md, `"annotations": {`+add+`}`), true
	}
	for _, k := range placeKeys {
		if _, has, ok := ann.member(&s, k); !ok || has {
			return nil, false // annotatePlace replaces it in place: the tree does that
		}
	}
	return insertJSON(raw, ann, add), true
}

// placeKeys are the annotations annotatePlace sets, in its order.
var placeKeys = []string{kioutil.PathAnnotation, kioutil.LegacyPathAnnotation, kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation}

// placeAnnotationsJSON is the text of the place annotations as members
// of a JSON object.
func placeAnnotationsJSON(file string, index int) string {
	var b bytes.Buffer
	for i, k := range placeKeys {
		if i > 0 {
			b.WriteString(", ")
		}
		v := file
		if i >= 2 {
			v = strconv.Itoa(index)
		}
		appendJSONString(&b, k)
		b.WriteString(": ")
		appendJSONString(&b, v)
	}
	return b.String()
}

// jsonObjectSpan is where an object is in the text: its opening and
// closing braces.
type jsonObjectSpan struct {
	open, close int
	empty       bool
}

// object reads the object at the scan's position (after white space)
// and returns its span, leaving the scan after it.
func (s *jsonScan) object() (jsonObjectSpan, bool) {
	if !s.skipSpace() || s.data[s.off] != '{' {
		return jsonObjectSpan{}, false
	}
	open := s.off
	if !s.nested() {
		return jsonObjectSpan{}, false
	}
	inner := bytes.TrimSpace(s.data[open+1 : s.off-1])
	return jsonObjectSpan{open: open, close: s.off - 1, empty: len(inner) == 0}, true
}

// wholeObject is the span of raw, one valid JSON object (an item that
// parsed): from its first byte past white space to its last.
func wholeObject(raw []byte) (jsonObjectSpan, bool) {
	open := len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
	end := len(bytes.TrimRight(raw, " \t\r\n")) - 1
	if open >= end || raw[open] != '{' || raw[end] != '}' {
		return jsonObjectSpan{}, false
	}
	inner := bytes.TrimSpace(raw[open+1 : end])
	return jsonObjectSpan{open: open, close: end, empty: len(inner) == 0}, true
}

// member finds the member named key of the object o, read up to it: the
// span of its value when that is an object (found); ok is false when its
// value is not an object, or when a key before it has an escape (its text
// could be key's). An item that is written gives no key twice (the fast
// decoders and the tree's check refuse one that does), so the first is
// the one.
func (o jsonObjectSpan) member(s *jsonScan, key string) (v jsonObjectSpan, found, ok bool) {
	s.off = o.open
	read := s.members(func(k jsonKey) bool {
		if bytes.IndexByte(k.text, '\\') >= 0 {
			return false
		}
		if string(k.text) != key {
			return s.value()
		}
		v, found = s.object()
		return false // found: the rest is not read
	})
	return v, found, found || read
}

// insertJSON adds members to the object o: before its closing brace,
// after a comma unless it is empty.
func insertJSON(raw []byte, o jsonObjectSpan, members string) []byte {
	out := make([]byte, 0, len(raw)+len(members)+2)
	out = append(out, raw[:o.close]...)
	if !o.empty {
		out = append(out, ", "...)
	}
	out = append(out, members...)
	return append(out, raw[o.close:]...)
}
