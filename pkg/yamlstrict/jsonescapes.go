package yamlstrict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf16"
)

// JSONForYAML returns JSON text that yaml.v3 reads as the API server (and
// encoding/json) reads the original. yaml.v3 refuses what JSON allows in
// three places. The escapes \/ and \uD800-\uDFFF, the UTF-16 surrogates
// with which JSON writers such as Python's json.dumps and PHP's
// json_encode write characters beyond U+FFFF: a surrogate pair becomes
// YAML's \UXXXXXXXX, a surrogate without its pair \uFFFD (what
// encoding/json reads it as) and \/ a slash. And a line break between a
// key and its colon (YAML's implicit keys are one line): the colon moves
// to just after the key, before the white space. Lines stay as they
// were; columns after a rewritten place move on its line. text itself is
// returned when it holds none of these, and when it is not valid JSON:
// in YAML, a backslash outside double quotes is itself, and a document
// that is not JSON is read as YAML.
func JSONForYAML(text []byte) []byte {
	if !hasYAMLRefusedEscape(text) && !hasKeyBrokenFromColon(text) || !json.Valid(text) {
		return text
	}
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text):
			i = appendEscape(&out, text, i)
		case isJSONSpace(c):
			// A run of white space outside strings (a string holds no raw
			// line break, and a run inside one is not followed by a colon
			// with a break in it).
			j := i
			for j < len(text) && isJSONSpace(text[j]) {
				j++
			}
			if j < len(text) && text[j] == ':' && bytes.IndexByte(text[i:j], '\n') >= 0 {
				out = append(append(out, ':'), text[i:j]...)
				i = j
				continue
			}
			out = append(out, text[i:j]...)
			i = j - 1
		default:
			out = append(out, c)
		}
	}
	return out
}

// appendEscape appends to out the escape at text[i] (a backslash), in the
// form yaml.v3 reads, and returns the index of its last byte.
func appendEscape(out *[]byte, text []byte, i int) int {
	switch text[i+1] {
	case '/':
		*out = append(*out, '/')
		return i + 1
	case 'u':
		if r, ok := hex4(text, i+2); ok && utf16.IsSurrogate(r) {
			lo, pair := hex4(text, i+8)
			if pair && text[i+6] == '\\' && text[i+7] == 'u' && utf16.DecodeRune(r, lo) != 0xFFFD {
				*out = fmt.Appendf(*out, `\U%08X`, utf16.DecodeRune(r, lo))
				return i + 11
			}
			*out = append(*out, `\uFFFD`...)
			return i + 5
		}
	}
	*out = append(*out, text[i], text[i+1]) // any other escape, \\ included
	return i + 1
}

// isJSONSpace reports JSON's white space.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// hasKeyBrokenFromColon reports a line break followed, past white space,
// by a colon: in JSON, only a key's colon can follow a line break.
func hasKeyBrokenFromColon(text []byte) bool {
	for i := 0; ; i++ {
		k := bytes.IndexByte(text[i:], '\n')
		if k < 0 {
			return false
		}
		i += k
		j := i + 1
		for j < len(text) && isJSONSpace(text[j]) {
			j++
		}
		if j < len(text) && text[j] == ':' {
			return true
		}
	}
}

// hasYAMLRefusedEscape reports text holding \/ or a \u escape of a UTF-16
// surrogate (after any number of escaped backslashes).
func hasYAMLRefusedEscape(text []byte) bool {
	for i := 0; ; i += 2 { // past the backslash and the escaped character
		k := bytes.IndexByte(text[i:], '\\')
		if k < 0 || i+k+1 >= len(text) {
			return false
		}
		i += k
		switch text[i+1] {
		case '/':
			return true
		case 'u':
			if r, ok := hex4(text, i+2); ok && utf16.IsSurrogate(r) {
				return true
			}
		}
	}
}

// hex4 reads the four hexadecimal digits at text[at:].
func hex4(text []byte, at int) (rune, bool) {
	if at+4 > len(text) {
		return 0, false
	}
	var r rune
	for _, c := range text[at : at+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
