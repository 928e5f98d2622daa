package krm

import (
	"unicode/utf8"
)

// appendIndented appends valid JSON text, indented as json.Indent indents
// it with prefix and two spaces, when it is canonical, checking and
// indenting in one pass; ok is false, and dst is to be dropped, when it
// is not. Canonical text is written by writeJSON, white space aside, as
// it is: a YAML tree of it, written back as JSON (appendJSON), gives the
// same tokens. Then an unchanged item is re-indented rather than parsed
// and encoded. Strings must hold no escape but those the encoder writes
// for itself (\" \\ \b \f \n \r \t) and no character it escapes (LS, PS,
// invalid UTF-8); numbers are any in JSON's number form, which the tree
// writer writes as it is (jsonScalar).
// Anything else is written from the tree.
//
// It stays hand-written on the hot path of a JSON list's output (every
// unchanged item, the whole 341 MB of the fleet's JSON export): jsontext
// would re-indent the text (Multiline, its PreserveRawStrings keeping
// strings as written) but not say whether it is canonical, so it would
// take this check and a second pass: twice the time of the one pass
// (BenchmarkReindentJSON, a worker-sized NodeFeature, best of 6 on a
// loaded machine: 1.0 ms against 2.1 ms), about 1 s more CPU time on
// the 341 MB JSON export, whose render takes 1.8 s at its target.
func appendIndented(dst, text []byte, prefix string) (out []byte, ok bool) {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	open := false // an object or array opened and nothing in it yet
	for i := 0; i < len(text); {
		c := text[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			i++
			continue
		}
		if open {
			open = false
			if c == '}' || c == ']' {
				depth--
				dst = append(dst, c)
				i++
				continue
			}
			newline()
		}
		switch {
		case c == '"':
			end, good := canonicalString(text, i+1)
			if !good {
				return dst, false
			}
			dst = append(dst, text[i:end]...)
			i = end
			continue
		case c == '-' || ('0' <= c && c <= '9'):
			end, good := jsonNumber(text, i)
			if !good {
				return dst, false
			}
			dst = append(dst, text[i:end]...)
			i = end
			continue
		case c == '{' || c == '[':
			dst = append(dst, c)
			depth++
			open = true
		case c == '}' || c == ']':
			depth--
			newline()
			dst = append(dst, c)
		case c == ',':
			dst = append(dst, c)
			newline()
		case c == ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c) // true, false, null
		}
		i++
	}
	return dst, true
}

// canonicalString checks the string whose text starts at from and
// returns the offset past its closing quote.
func canonicalString(text []byte, from int) (int, bool) {
	for i := from; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(text) {
				return 0, false
			}
			switch text[i+1] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				i += 2
			default:
				return 0, false
			}
		case c < 0x20:
			return 0, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(text[i:])
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				return 0, false
			}
			i += size
		}
	}
	return 0, false
}

// jsonNumber checks the number starting at from, in JSON's number form
// (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?), and returns the offset
// past it. Any such number is canonical: the tree writer writes it as it
// is (jsonScalar).
func jsonNumber(text []byte, from int) (int, bool) {
	i := from
	if i < len(text) && text[i] == '-' {
		i++
	}
	digits := i
	i = skipDigits(text, i)
	switch {
	case i == digits:
		return 0, false
	case text[digits] == '0' && i-digits > 1:
		return 0, false // a leading zero
	}
	if i < len(text) && text[i] == '.' {
		if i = skipDigits(text, i+1); text[i-1] == '.' {
			return 0, false
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		if i < len(text) && (text[i] == '-' || text[i] == '+') {
			i++
		}
		exp := i
		if i = skipDigits(text, i); i == exp {
			return 0, false
		}
	}
	return i, true
}

// skipDigits returns the offset past the decimal digits from i.
func skipDigits(text []byte, i int) int {
	for i < len(text) && '0' <= text[i] && text[i] <= '9' {
		i++
	}
	return i
}
