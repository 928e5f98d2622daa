package yamlstrict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf16"
)

// JSONForYAML returns JSON text that yaml.v3 reads as the API server (and
// encoding/json) reads the original. yaml.v3 refuses two escapes that
// JSON allows: \/ and \uD800-\uDFFF, the UTF-16 surrogates with which JSON
// writers such as Python's json.dumps and PHP's json_encode write
// characters beyond U+FFFF. A surrogate pair becomes YAML's \UXXXXXXXX, a
// surrogate without its pair \uFFFD (what encoding/json reads it as) and
// \/ a slash. Lines stay as they were; columns after a rewritten escape
// move left on its line. text itself is returned when it holds neither
// escape, and when it is not valid JSON: in YAML, a backslash outside
// double quotes is itself, and a document that is not JSON is read as
// YAML.
func JSONForYAML(text []byte) []byte {
	if !hasYAMLRefusedEscape(text) || !json.Valid(text) {
		return text
	}
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\\' || i+1 >= len(text) {
			out = append(out, c)
			continue
		}
		switch text[i+1] {
		case '/':
			out = append(out, '/')
			i++
			continue
		case 'u':
			if r, ok := hex4(text, i+2); ok && utf16.IsSurrogate(r) {
				lo, pair := hex4(text, i+8)
				if pair && text[i+6] == '\\' && text[i+7] == 'u' && utf16.DecodeRune(r, lo) != 0xFFFD {
					out = fmt.Appendf(out, `\U%08X`, utf16.DecodeRune(r, lo))
					i += 11
				} else {
					out = append(out, `\uFFFD`...)
					i += 5
				}
				continue
			}
		}
		out = append(out, c, text[i+1]) // any other escape, \\ included
		i++
	}
	return out
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
