package fastread

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// jsonReader reads one JSON object as kubectl get -o json writes it (an
// element of a List's items, indented or not) for the fast decoders.
// JSON is YAML, and the general path parses it with yaml.v3, so the
// reader finds exactly what yaml.v3 finds: a string is a quoted scalar
// with its decoded text, a number, true, false or null a plain scalar
// (which YAML resolves by its text, see plainTag: a number where a string
// belongs is refused as in a YAML file), {} and [] the empty collections.
// It reads the JSON grammar with spaces and line breaks between tokens
// and gives up (so the general path decides) on anything else, and on
// valid JSON that yaml.v3 reads otherwise or refuses:
//
//   - tabs and carriage returns (yaml.v3 refuses a tab where a line
//     starts outside the braces);
//   - a line break between a key and its colon, and a key whose colon is
//     more than maxKeyLen bytes from its start (YAML's implicit keys);
//   - the escapes \/ and \uD800-\uDFFF, which yaml.v3 refuses as
//     written (a character beyond U+FFFF is read here written as itself);
//   - raw control characters and DEL, and raw non-ASCII characters that
//     yaml.v3 refuses (C1 controls, U+FFFE, U+FFFF), reads otherwise (NEL,
//     which it folds into a space) or treats as special (U+2028, U+2029,
//     the byte order mark); invalid UTF-8;
//   - nesting deeper than maxBlockDepth, and content after the object.
//
// (The general path rewrites the line break between a key and its colon
// and those escapes before it parses, yamlstrict.JSONForYAML, and reads
// such objects as JSON does.)
//
// Every other escape (\" \\ \b \f \n \r \t \uXXXX) gives the same text
// as in yaml.v3 (TestJSONStringsReadAsYAMLReadsThem).
//
// encoding/json is not used instead: it matches field names
// case-insensitively (it would read "Metadata" or "SPEC", which the API
// server and the strict decoder refuse), keeps the last of a key given
// twice where the general path refuses the item, and replaces invalid
// UTF-8 where yaml.v3 refuses it: it would read objects the general path
// reports, and the fast path must never read what that path refuses. It
// is also slower, with more allocations (BenchmarkDecodeNodeFeature:
// json-kubectl against fast-json).
//
// Nor is jsontext's Decoder (go-json-experiment/json, the tokenizer the
// krm package edits and writes JSON with), though it keys and escapes as
// JSON does: the rules above would still be checked here, on each
// string's text and on the bytes around the tokens, after the tokenizer
// has read them. A reader made that way (the same decoding, jsontext
// tokens, these checks) read kubectl's items correctly and 1.8x as
// slowly (BenchmarkDecodeLean/json, best of 5 on a loaded machine:
// 2.6 ms against 4.6 ms), and took rendering the 341 MB JSON export from
// 5.8 s of CPU time to 8.2 s, its wall time up as much: past the render
// target (0.15x the yaml.v3 parse), which the export meets with this
// reader. Alone, jsontext's tokens with the string checks take three
// quarters of this reader's whole read, and 3.5x it when jsontext
// refuses keys given twice (BenchmarkJSONReader). So the reader stays
// hand-written; only the decoding of escapes, which kubectl's output
// seldom has, is jsontext's (unescape).
type jsonReader struct {
	src []byte
	// pos is the offset of the next byte to read. A vMap or vSeq value
	// is read from its opening bracket, at value.ind, so one left unread
	// leaves pos where the enclosing collection expects a comma.
	pos int
	bad bool
}

// fail marks the input as outside the subset and returns false.
func (r *jsonReader) fail() bool {
	r.bad = true
	return false
}

// object reads raw as one JSON object, not {}, between spaces and line
// breaks: read is given the object and must consume it.
func (r *jsonReader) object(raw []byte, read func(v value) bool) bool {
	r.src, r.pos, r.bad = raw, 0, false
	r.space()
	if r.pos == len(raw) || raw[r.pos] != '{' {
		return false
	}
	v, ok := r.value()
	if !ok || v.kind != vMap || !read(v) || r.bad {
		return false
	}
	r.space()
	return r.pos == len(raw)
}

// space skips spaces and line breaks, eight spaces at a time where
// kubectl's indentation has them.
func (r *jsonReader) space() {
	src, i := r.src, r.pos
	for i < len(src) && (src[i] == ' ' || src[i] == '\n') {
		i++
		for i+8 <= len(src) && binary.LittleEndian.Uint64(src[i:]) == eightSpaces {
			i += 8
		}
	}
	r.pos = i
}

// eightSpaces is eight spaces read as a little-endian uint64.
const eightSpaces = 0x2020202020202020

// value reads the value at pos (after white space): a scalar is read, a
// non-empty collection is left at its opening bracket for the receiver.
func (r *jsonReader) value() (value, bool) {
	r.space()
	if r.pos >= len(r.src) {
		return value{}, r.fail()
	}
	switch c := r.src[r.pos]; c {
	case '{', '[':
		at := r.pos
		r.pos++
		r.space()
		if r.pos < len(r.src) && r.src[r.pos] == c+2 { // '}' or ']'
			r.pos++
			if c == '{' {
				return value{kind: vEmptyMap}, true
			}
			return value{kind: vEmptySeq}, true
		}
		r.pos = at
		if c == '{' {
			return value{kind: vMap, ind: at}, true
		}
		return value{kind: vSeq, ind: at}, true
	case '"':
		tok, ok := r.str()
		if !ok {
			return value{}, r.fail()
		}
		return value{kind: vScalar, quoted: true, tok: tok}, true
	case 't':
		return r.literal("true")
	case 'f':
		return r.literal("false")
	case 'n':
		return r.literal("null")
	}
	return r.number()
}

// literal reads true, false or null as a plain scalar.
func (r *jsonReader) literal(word string) (value, bool) {
	end := r.pos + len(word)
	if end > len(r.src) || string(r.src[r.pos:end]) != word {
		return value{}, r.fail()
	}
	tok := r.src[r.pos:end]
	r.pos = end
	return value{kind: vScalar, tok: tok}, true
}

// number reads a JSON number as a plain scalar.
func (r *jsonReader) number() (value, bool) {
	src, i := r.src, r.pos
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && '1' <= src[i] && src[i] <= '9':
		i = digits(src, i)
	default:
		return value{}, r.fail()
	}
	if i < len(src) && src[i] == '.' {
		j := digits(src, i+1)
		if j == i+1 {
			return value{}, r.fail()
		}
		i = j
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := digits(src, i)
		if j == i {
			return value{}, r.fail()
		}
		i = j
	}
	tok := src[r.pos:i]
	r.pos = i
	return value{kind: vScalar, tok: tok}, true
}

// digits returns the offset past the decimal digits from i.
func digits(src []byte, i int) int {
	for i < len(src) && '0' <= src[i] && src[i] <= '9' {
		i++
	}
	return i
}

// strByte marks the bytes a string holds as themselves: printable ASCII
// but the quote and the backslash.
var strByte = func() (t [256]bool) {
	for c := ' '; c <= '~'; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads the string at pos: its text, a slice of the input when it
// has no escapes, else a decoded copy.
func (r *jsonReader) str() ([]byte, bool) {
	i, ok := textRun(r.src, r.pos+1)
	switch {
	case !ok:
		return nil, false
	case r.src[i] == '"':
		tok := r.src[r.pos+1 : i]
		r.pos = i + 1
		return tok, true
	}
	return r.unescape(i)
}

// unescape reads the rest of the string at pos from its first escape,
// at i: it finds the closing quote, refusing what yaml.v3 refuses and
// JSON allows (yamlEscape, and the raw characters textRune refuses),
// then decodes the escapes with jsontext, which reads them as yaml.v3
// does once those are out.
func (r *jsonReader) unescape(i int) ([]byte, bool) {
	src := r.src
	for {
		if !yamlEscape(src[i+1:]) {
			return nil, false
		}
		var ok bool
		// Past the escaped quote or backslash; \u's digits are plain bytes.
		if i, ok = textRun(src, i+2); !ok {
			return nil, false
		}
		if src[i] == '"' {
			out, err := jsontext.AppendUnquote(make([]byte, 0, i-r.pos), src[r.pos:i+1])
			if err != nil {
				return nil, false // a \u without four hexadecimal digits
			}
			r.pos = i + 1
			return out, true
		}
	}
}

// textRun is the offset of the first quote or backslash in src from i,
// past the text a string holds as itself (strByte, and the characters
// textRune allows); ok is false at a byte a string may not hold raw (a
// control character, DEL, what textRune refuses) or at the end of src.
func textRun(src []byte, i int) (end int, ok bool) {
	for {
		for i < len(src) && strByte[src[i]] {
			i++
		}
		if i >= len(src) {
			return i, false
		}
		switch c := src[i]; {
		case c == '"' || c == '\\':
			return i, true
		case c >= 0x80:
			n := textRune(src[i:])
			if n == 0 {
				return i, false
			}
			i += n
		default:
			return i, false // a control character or DEL
		}
	}
}

// yamlEscape reports whether the escape after a backslash, e, is one
// that yaml.v3 decodes as JSON does: not \/, which yaml.v3 refuses, nor
// \uD800-\uDFFF, UTF-16 surrogates, which it refuses alone and in pairs.
func yamlEscape(e []byte) bool {
	if len(e) == 0 {
		return false
	}
	switch e[0] {
	case '"', '\\', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		return len(e) >= 3 && !(e[1]|0x20 == 'd' && strings.IndexByte("89abcdefABCDEF", e[2]) >= 0)
	}
	return false
}

// textRune is the length of the UTF-8 character b starts with when
// yaml.v3 reads it as itself in a quoted scalar, else 0: not for invalid
// UTF-8, C1 controls, the line breaks NEL, LS and PS, the byte order mark
// and the non-characters U+FFFE and U+FFFF.
func textRune(b []byte) int {
	c, n := utf8.DecodeRune(b)
	switch {
	case c == utf8.RuneError && n <= 1:
		return 0
	case c < 0xA0, c == 0x2028, c == 0x2029, c == 0xFEFF, c == 0xFFFE, c == 0xFFFF:
		return 0
	}
	return n
}

// key reads a mapping key at pos and its colon, on the same line.
func (r *jsonReader) key() ([]byte, bool) {
	start := r.pos
	if start >= len(r.src) || r.src[start] != '"' {
		return nil, false
	}
	k, ok := r.str()
	if !ok {
		return nil, false
	}
	for r.pos < len(r.src) && r.src[r.pos] == ' ' {
		r.pos++
	}
	if r.pos >= len(r.src) || r.src[r.pos] != ':' || r.pos-start > maxKeyLen {
		return nil, false
	}
	r.pos++
	return k, true
}

// mapping reads the object m, calling each for every member with its
// key's text; each must consume the value.
func (r *jsonReader) mapping(m value, each func(k []byte, v value) bool) bool {
	if m.kind != vMap || r.bad || r.pos != m.ind {
		return r.fail()
	}
	r.pos++
	for {
		r.space()
		k, ok := r.key()
		if !ok {
			return r.fail()
		}
		sub, ok := r.value()
		if !ok || !each(k, sub) || r.bad {
			return r.fail()
		}
		if more, ok := r.next('}'); !more {
			return ok
		}
	}
}

// sequence reads the array seq, calling each for every element; each
// must consume the value.
func (r *jsonReader) sequence(seq value, each func(v value) bool) bool {
	if seq.kind != vSeq || r.bad || r.pos != seq.ind {
		return r.fail()
	}
	r.pos++
	for {
		sub, ok := r.value()
		if !ok || !each(sub) || r.bad {
			return r.fail()
		}
		if more, ok := r.next(']'); !more {
			return ok
		}
	}
}

// next reads what follows a member or an element: a comma, when more
// follow, or close, which ends the collection; anything else fails.
func (r *jsonReader) next(close byte) (more, ok bool) {
	r.space()
	if r.pos < len(r.src) {
		switch r.src[r.pos] {
		case ',':
			r.pos++
			return true, true
		case close:
			r.pos++
			return false, true
		}
	}
	return false, r.fail()
}

// skip consumes v unread, as block's skip does: in the subset, at most
// maxBlockDepth deep, no key given twice.
func (r *jsonReader) skip(v value, depth int) bool {
	if depth > maxBlockDepth {
		return r.fail()
	}
	switch v.kind {
	case vMap:
		var keys distinctKeys
		return r.mapping(v, func(k []byte, sub value) bool { return keys.add(k) && r.skip(sub, depth+1) })
	case vSeq:
		return r.sequence(v, func(sub value) bool { return r.skip(sub, depth+1) })
	}
	return true
}

// entries counts the commas at the top level of the object v, plus one:
// its number of members when it is valid JSON, as a hint for allocating
// the map it is read into.
func (r *jsonReader) entries(v value) int {
	src := r.src
	n, depth := 1, 0
	for i := v.ind + 1; i < len(src) && n < 1<<16; i++ {
		for i < len(src) && !structural[src[i]] {
			i++
		}
		if i == len(src) {
			break
		}
		switch src[i] {
		case '\n':
			for i+9 <= len(src) && binary.LittleEndian.Uint64(src[i+1:]) == eightSpaces {
				i += 8 // the indentation
			}
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

// structural marks the bytes entries looks at.
var structural = func() (t [256]bool) {
	for _, c := range []byte("\"{}[],\n") {
		t[c] = true
	}
	return t
}()
