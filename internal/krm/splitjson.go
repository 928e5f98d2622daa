package krm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
)

// splitJSON is splitDocument for a list written as JSON (kubectl get -o
// json, a ResourceList a JSON-speaking tool wrote): it cuts the top-level
// object into its keys and the items array into one raw chunk per
// element, without a tree of the whole input, calling each (may be nil)
// with every item as it is cut.
//
// It follows JSON's grammar only as far as it must to find where each
// value ends (strings with their escapes, brackets and braces); each
// section and item is then parsed on its own, and an item that is not
// valid JSON makes the caller read the input whole. ok is false for
// anything it does not read with certainty: a top-level key with an
// escape, items that are not an array, text after the object, a line
// break YAML sees and the line count here does not (a lone CR, NEL, LS or
// PS). An item's text starts at the start of its line when only spaces
// precede it there, so that its tree has the input's columns.
func splitJSON(data []byte, release func([]byte), each func(chunk)) (sp split, ok bool) {
	if hasOddLineBreak(data, release) {
		return split{}, false
	}
	s := jsonScan{data: data, line: 1}
	pg := pager{data: data, release: release}
	defer pg.done(nil)
	if !s.skipSpace() || data[s.off] != '{' {
		return split{}, false
	}
	s.off++
	if !s.skipSpace() {
		return split{}, false
	}
	if data[s.off] == '}' {
		return split{}, false // an empty object: the full parser says what is missing
	}
	for {
		keyStart, keyLine := s.off, s.line
		key, good := s.plainString()
		if !good || !s.skipSpace() || data[s.off] != ':' {
			return split{}, false
		}
		s.off++
		if !s.skipSpace() {
			return split{}, false
		}
		if key == "items" {
			if data[s.off] != '[' || !s.items(&pg, func(c chunk) {
				sp.items = append(sp.items, c)
				if each != nil {
					each(c)
				}
			}) {
				return split{}, false
			}
			sp.sections = append(sp.sections, section{key: key, line: keyLine})
		} else {
			valueAt := s.off - keyStart
			if !s.value() || !json.Valid(data[keyStart+valueAt:s.off]) {
				return split{}, false // YAML may read what JSON does not
			}
			sp.sections = append(sp.sections, section{key: key, raw: data[keyStart:s.off:s.off], line: keyLine, valueAt: valueAt, json: true})
		}
		pg.reached(s.off)
		if !s.skipSpace() {
			return split{}, false
		}
		switch data[s.off] {
		case ',':
			s.off++
			if !s.skipSpace() {
				return split{}, false
			}
		case '}':
			s.off++
			return sp, s.atEnd()
		default:
			return split{}, false
		}
	}
}

// looksLikeJSON reports input whose first character past white space
// opens an object: JSON, or YAML in flow style, which splitJSON refuses.
func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// jsonScan is a position in JSON text and its 1-based line.
type jsonScan struct {
	data []byte
	off  int
	line int
}

// skipSpace moves past JSON white space and reports whether text follows.
func (s *jsonScan) skipSpace() bool {
	for s.off < len(s.data) {
		switch s.data[s.off] {
		case '\n':
			s.line++
		case ' ', '\t', '\r':
		default:
			return true
		}
		s.off++
	}
	return false
}

// atEnd reports whether only white space follows.
func (s *jsonScan) atEnd() bool { return !s.skipSpace() }

// plainString reads a string of printable ASCII without escapes (a
// top-level key) and returns its text: the key is not parsed by YAML as
// the values are, so it must be text YAML reads as it is.
func (s *jsonScan) plainString() (string, bool) {
	d := s.data
	if d[s.off] != '"' {
		return "", false
	}
	end := bytes.IndexByte(d[s.off+1:], '"')
	if end < 0 {
		return "", false
	}
	text := d[s.off+1 : s.off+1+end]
	for _, c := range text {
		if c < 0x20 || c > 0x7e || c == '\\' {
			return "", false // an escape, or text YAML may read otherwise
		}
	}
	s.off += end + 2
	return string(text), true
}

// value moves past one value: a string, an object or array (to its
// matching close), or a number or literal (to the next delimiter). It
// reports false at the end of the text or on a stray closing bracket.
func (s *jsonScan) value() bool {
	d := s.data
	switch d[s.off] {
	case '"':
		return s.string()
	case '{', '[':
		return s.nested()
	case '}', ']', ',', ':':
		return false
	}
	for s.off < len(d) {
		switch d[s.off] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return true
		}
		s.off++
	}
	return true
}

// string moves past a string, honouring its escapes: its end is the
// first quote not escaped, after an even run of backslashes. A raw line
// break in it is not JSON; the item holding it is refused when checked.
func (s *jsonScan) string() bool {
	d := s.data
	for i := s.off + 1; i < len(d); i++ {
		j := bytes.IndexByte(d[i:], '"')
		if j < 0 {
			return false
		}
		i += j
		k := i - 1
		for k > s.off && d[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			s.off = i + 1
			return true
		}
	}
	return false
}

// nested moves past an object or array to its matching close, counting
// the lines in it.
func (s *jsonScan) nested() bool {
	d := s.data
	from := s.off
	depth := 0
	for i := s.off; i < len(d); {
		for i < len(d) && !jsonStructural[d[i]] {
			i++
			for i+8 <= len(d) && binary.LittleEndian.Uint64(d[i:]) == eightSpaces {
				i += 8 // kubectl's indentation
			}
		}
		if i == len(d) {
			break
		}
		switch d[i] {
		case '"':
			s.off = i
			if !s.string() {
				return false
			}
			i = s.off
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.off = i + 1
				s.line += bytes.Count(d[from:s.off], []byte("\n"))
				return true
			}
		}
		i++
	}
	return false
}

// eightSpaces is eight spaces read as a little-endian uint64.
const eightSpaces = 0x2020202020202020

// jsonStructural marks the bytes nested stops at.
var jsonStructural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// items cuts the array at the current position into its elements.
func (s *jsonScan) items(pg *pager, add func(chunk)) bool {
	d := s.data
	s.off++ // '['
	if !s.skipSpace() {
		return false
	}
	if d[s.off] == ']' {
		s.off++
		return true
	}
	for {
		start, line := s.off, s.line
		if ls := bytes.LastIndexByte(d[:start], '\n') + 1; len(bytes.TrimLeft(d[ls:start], " ")) == 0 {
			start = ls
		}
		if !s.value() {
			return false
		}
		add(chunk{raw: d[start:s.off:s.off], line: line, json: true})
		pg.reached(s.off)
		if !s.skipSpace() {
			return false
		}
		switch d[s.off] {
		case ',':
			s.off++
			if !s.skipSpace() || d[s.off] == ']' {
				return false // a trailing comma is not JSON
			}
		case ']':
			s.off++
			return true
		default:
			return false
		}
	}
}
