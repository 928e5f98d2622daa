package diag

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape makes s safe to print on a terminal or show in a review UI: every
// character that could move the cursor, change colours, hide text or
// reorder it is written as a Go escape instead. That is the C0 controls
// (tab and newline included, so that one diagnostic stays one line), DEL,
// the C1 controls (U+0080–U+009F, NEL among them), the bidirectional
// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the
// directional marks (U+200E, U+200F, U+061C), the line and paragraph
// separators (U+2028, U+2029), and bytes that are not UTF-8. Everything
// else, backslashes included, is kept: text without such characters comes
// back unchanged.
//
// Every text form nfd-fn prints goes through it: Diagnostic.Text (and so
// the stderr lines and validate's text output), SARIF messages, explain's
// text, the command line's summaries and warnings, and the message, object
// name and file of every KRM result (fn.Result).
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r):
			writeEscaped(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape reports whether Escape would change s.
func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return true
		}
		i += size
	}
	return false
}

// unsafeRune reports whether r must not reach a terminal as it is.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c, r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// writeEscaped writes r as \n, \t, \r, \xNN or \uNNNN.
func writeEscaped(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\t':
		b.WriteString(`\t`)
	case '\r':
		b.WriteString(`\r`)
	default:
		if r < 0x80 {
			fmt.Fprintf(b, `\x%02x`, r)
		} else {
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
}
