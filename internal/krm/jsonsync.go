package krm

import (
	"bytes"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// SyncMapJSON is SyncMapText for an object in JSON text (an item of a
// JSON list or file): the map at parent.key made to hold exactly want, as
// SyncStringMap makes a tree hold it (the entries kept in their order, the
// missing ones added in key order), without a tree of the object. The
// entries that stay keep their text. ok is false, and the tree must do
// it, when parent is missing or not an object, when the map is not an
// object of strings, when a key up to it has an escape, or when want
// holds text that is not UTF-8.
func SyncMapJSON(raw []byte, parent, key string, want map[string]string) (out []byte, changed, ok bool) {
	for k, v := range want {
		if !yamlSafeText(k) || !yamlSafeText(v) || len(k) > maxJSONKey {
			return nil, false, false
		}
	}
	top, ok := wholeObject(raw)
	if !ok {
		return nil, false, false
	}
	p, found, ok := top.member(raw, parent)
	if !ok || !found {
		return nil, false, false
	}
	m, found, ok := p.member(raw, key)
	switch {
	case !ok:
		return nil, false, false
	case !found && len(want) == 0:
		return raw, false, true
	case !found:
		var b bytes.Buffer
		appendJSONString(&b, key)
		b.WriteString(": {")
		writeJSONEntries(&b, want, slices.Sorted(maps.Keys(want)), false)
		b.WriteByte('}')
		return insertJSON(raw, p, b.String()), true, true
	}
	entries, ok := stringMembers(raw, m)
	if !ok {
		return nil, false, false
	}
	text, changed := syncJSONEntries(entries, want)
	if !changed {
		return raw, false, true
	}
	out = make([]byte, 0, len(raw)+len(text))
	out = append(append(append(out, raw[:m.open+1]...), text...), raw[m.close:]...)
	return out, true, true
}

// maxJSONKey bounds the keys SyncMapJSON writes: a key must stay under
// yaml.v3's limit of 1024 characters on an implicit key (yamlSafeText
// keeps every character but those the encoder escapes, at most six
// bytes, to one: 1000/6 would be too tight for Kubernetes' 317-byte keys,
// and control characters, the only ones escaped, do not occur in them;
// one that does, past the limit, is left to the tree).
const maxJSONKey = 317

// yamlSafeText reports text the JSON encoder writes as YAML reads it:
// valid UTF-8 (else the encoder writes U+FFFD where the tree keeps the
// bytes) without the characters yaml.v3 refuses raw in a document (DEL,
// the C1 controls, U+FEFF, U+FFFE, U+FFFF) nor control characters, which
// the encoder escapes, lengthening a key.
func yamlSafeText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r < 0x20, r == 0x7f, 0x80 <= r && r <= 0x9f, r == 0xfeff, r == 0xfffe, r == 0xffff:
			return false
		}
	}
	return true
}

// jsonMember is one member of an object of strings: its key and value
// decoded, and its text.
type jsonMember struct {
	key, value string
	text       []byte
}

// syncJSONEntries is the text of the members of a map made to hold want
// (syncPlan).
func syncJSONEntries(entries []jsonMember, want map[string]string) (text []byte, changed bool) {
	var b bytes.Buffer
	added, dropped := syncPlan(len(entries), func(i int) string { return entries[i].key }, want,
		func(i int, v string) {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			if v == entries[i].value {
				b.Write(entries[i].text)
				return
			}
			changed = true
			writeJSONEntries(&b, want, []string{entries[i].key}, false)
		})
	writeJSONEntries(&b, want, added, b.Len() > 0)
	return b.Bytes(), changed || dropped || len(added) > 0
}

// writeJSONEntries writes the members of want named by keys, in order,
// after a comma when more is set.
func writeJSONEntries(b *bytes.Buffer, want map[string]string, keys []string, more bool) {
	for _, k := range keys {
		if more {
			b.WriteString(", ")
		}
		more = true
		appendJSONString(b, k)
		b.WriteString(": ")
		appendJSONString(b, want[k])
	}
}

// stringMembers reads the members of the object o, every value a string.
func stringMembers(raw []byte, o jsonObjectSpan) ([]jsonMember, bool) {
	var out []jsonMember
	ok := o.members(raw, func(dec *jsontext.Decoder, k jsontext.Value, at int) bool {
		key, good := unquoteJSON(k)
		if !good || dec.PeekKind() != '"' {
			return false
		}
		v, err := dec.ReadValue()
		if err != nil {
			return false
		}
		value, good := unquoteJSON(v)
		out = append(out, jsonMember{key: key, value: value, text: raw[at:o.offset(dec)]})
		return good
	})
	return out, ok
}

// unquoteJSON is the text of a string token, quotes included. ok is
// false for text with an escape that is not UTF-8 (the tree says what
// it is); one without is its bytes as they are.
func unquoteJSON(tok []byte) (string, bool) {
	if bytes.IndexByte(tok, '\\') < 0 {
		return string(tok[1 : len(tok)-1]), true
	}
	text, err := jsontext.AppendUnquote(nil, tok)
	return string(text), err == nil
}
