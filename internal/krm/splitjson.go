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
//
// The cut is hand-written (jsonScan), not jsontext's Decoder, which the
// item editors (annotateJSON, SyncMapJSON) and the writer use. A
// tokenizer stops at the first syntax error, so one item that is not
// JSON would send the whole input to yaml.v3 (2.8 GB of memory for the
// 1,000-node export), where the cut reports that item at its line and
// keeps the rest: it only finds where each value ends, and the items
// are checked as they are decoded. It is also the
// one sequential pass that feeds the decoding workers, and the faster
// (BenchmarkSplitJSON, 20 worker-sized NodeFeatures, 6.5 MB, on a loaded
// machine: best 7.7 ms against 9.0 ms for jsontext reading the items as
// values, most runs 8-15 ms against 17-29 ms).
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
	ok = s.members(func(k jsonKey) bool {
		key, plain := k.plain()
		switch {
		case !plain:
			return false
		case key == "items":
			if data[s.off] != '[' || !s.items(&pg, func(c chunk) {
				sp.items = append(sp.items, c)
				if each != nil {
					each(c)
				}
			}) {
				return false
			}
			sp.sections = append(sp.sections, section{key: key, line: k.line})
		default:
			valueAt := s.off - k.start
			if !s.value() || !json.Valid(data[k.start+valueAt:s.off]) {
				return false // YAML may read what JSON does not
			}
			sp.sections = append(sp.sections, section{key: key, raw: data[k.start:s.off:s.off], line: k.line, valueAt: valueAt, json: true})
		}
		pg.reached(s.off)
		return true
	})
	if !ok || len(sp.sections) == 0 || !s.atEnd() {
		return split{}, false // an empty object: the full parser says what is missing
	}
	return sp, true
}

// jsonKey is a member's key as members meets it: its text between the
// quotes, escapes as written, where it starts and on which line.
type jsonKey struct {
	text        []byte
	start, line int
}

// plain returns the key's text when it is printable ASCII without an
// escape (a top-level key, which YAML does not parse as it parses the
// values, so it must be text YAML reads as it is).
func (k jsonKey) plain() (string, bool) {
	for _, c := range k.text {
		if c < 0x20 || c > 0x7e || c == '\\' {
			return "", false
		}
	}
	return string(k.text), true
}

// members reads the members of the object whose '{' is at the position,
// calling each with every key once the scan is at its value; each must
// move past the value, or return false to stop. members reports whether
// it read the object to its closing brace, past which the scan then is.
func (s *jsonScan) members(each func(k jsonKey) bool) bool {
	d := s.data
	s.off++ // '{'
	if !s.skipSpace() {
		return false
	}
	if d[s.off] == '}' {
		s.off++
		return true
	}
	for {
		k := jsonKey{start: s.off, line: s.line}
		if d[s.off] != '"' || !s.string() {
			return false
		}
		k.text = d[k.start+1 : s.off-1]
		if !s.skipSpace() || d[s.off] != ':' {
			return false
		}
		s.off++
		if !s.skipSpace() || !each(k) || !s.skipSpace() {
			return false
		}
		switch d[s.off] {
		case ',':
			s.off++
			if !s.skipSpace() {
				return false
			}
		case '}':
			s.off++
			return true
		default:
			return false
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
