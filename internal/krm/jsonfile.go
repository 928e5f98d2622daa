package krm

import (
	"bytes"
	"slices"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// jsonEntry is the output text of an unchanged JSON object read from a
// file, in a list read from files (written as YAML): the object's own
// text as a YAML flow mapping (JSON is YAML), its path and index
// annotations added where annotatePlace adds them, indented under the
// entry's "- ". It reads as the tree path's output does (the differential
// TestJSONFileEntryReadsAsItsTree and FuzzJSONFileEntry check it), without
// a tree of the object; ok is false for text that is not canonical
// (canonical: appendIndented), whose metadata or annotations are not objects, or that
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
	top, ok := wholeObject(raw)
	if !ok {
		return nil, false
	}
	md, found, ok := top.member(raw, "metadata")
	switch {
	case !ok:
		return nil, false
	case !found:
		return insertJSON(raw, top, `"metadata": {"annotations": {`+add+`}}`), true
	}
	ann, found, ok := md.member(raw, "annotations")
	switch {
	case !ok:
		return nil, false
	case !found:
		return insertJSON(raw, md, `"annotations": {`+add+`}`), true
	}
	placed := !ann.members(raw, func(dec *jsontext.Decoder, k jsontext.Value, _ int) bool {
		// A place annotation is replaced in place by annotatePlace, and a
		// key with an escape could be one: the tree does those.
		return bytes.IndexByte(k, '\\') < 0 && !slices.Contains(placeKeys, string(k[1:len(k)-1])) && dec.SkipValue() == nil
	})
	if placed {
		return nil, false
	}
	return insertJSON(raw, ann, add), true
}

// placeKeys are the annotations annotatePlace sets, in its order.
var placeKeys = PlaceKeys[:]

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

// spanOf is the span of the object from open to close in raw.
func spanOf(raw []byte, open, close int) jsonObjectSpan {
	return jsonObjectSpan{open: open, close: close, empty: len(bytes.TrimSpace(raw[open+1:close])) == 0}
}

// wholeObject is the span of raw, one valid JSON object (an item that
// parsed): from its first byte past white space to its last.
func wholeObject(raw []byte) (jsonObjectSpan, bool) {
	open := len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
	end := len(bytes.TrimRight(raw, " \t\r\n")) - 1
	if open >= end || raw[open] != '{' || raw[end] != '}' {
		return jsonObjectSpan{}, false
	}
	return spanOf(raw, open, end), true
}

// members reads the object o of raw with a jsontext decoder, calling
// each with every key (its token, quotes and escapes as written) and
// the offset it starts at; each must read the member's value from dec,
// or return false to stop. members reports whether it read the object
// to its closing brace. Keys given twice and text that is not UTF-8 are
// read, as the tree's checks, not this, refuse them.
func (o jsonObjectSpan) members(raw []byte, each func(dec *jsontext.Decoder, key jsontext.Value, at int) bool) bool {
	pd := memberDecoders.Get().(*memberDecoder)
	defer pd.release()
	pd.text = *bytes.NewBuffer(raw[o.open : o.close+1])
	dec := &pd.dec
	dec.Reset(&pd.text, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if t, err := dec.ReadToken(); err != nil || t.Kind() != '{' {
		return false
	}
	for dec.PeekKind() == '"' {
		k, err := dec.ReadValue()
		if err != nil || !each(dec, k, o.offset(dec)-len(k)) {
			return false
		}
	}
	t, err := dec.ReadToken()
	return err == nil && t.Kind() == '}'
}

// memberDecoder is a decoder members reads with and the buffer it reads
// (the object's text, not copied); memberDecoders keeps them for reuse.
type memberDecoder struct {
	dec  jsontext.Decoder
	text bytes.Buffer
}

var memberDecoders = sync.Pool{New: func() any { return new(memberDecoder) }}

// release gives pd back to memberDecoders, holding no text.
func (pd *memberDecoder) release() {
	pd.text = bytes.Buffer{}
	pd.dec.Reset(&pd.text)
	memberDecoders.Put(pd)
}

// offset is where in raw a decoder of o's text is.
func (o jsonObjectSpan) offset(dec *jsontext.Decoder) int { return o.open + int(dec.InputOffset()) }

// member finds the member named key of the object o, read up to it: the
// span of its value when that is an object (found); ok is false when its
// value is not an object, or when a key before it has an escape (its text
// could be key's). An item that is written gives no key twice (the fast
// decoders and the tree's check refuse one that does), so the first is
// the one.
func (o jsonObjectSpan) member(raw []byte, key string) (v jsonObjectSpan, found, ok bool) {
	read := o.members(raw, func(dec *jsontext.Decoder, k jsontext.Value, _ int) bool {
		if bytes.IndexByte(k, '\\') >= 0 {
			return false
		}
		if string(k[1:len(k)-1]) != key {
			return dec.SkipValue() == nil
		}
		if dec.PeekKind() == '{' {
			if text, err := dec.ReadValue(); err == nil {
				end := o.offset(dec)
				v, found = spanOf(raw, end-len(text), end-1), true
			}
		}
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
