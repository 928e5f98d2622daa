package discover

import (
	"fmt"
	"unicode/utf8"
)

// cleanValue prepares a key or value read from the host for the
// NodeFeature. Invalid UTF-8 bytes become U+FFFD each, as encoding/json
// writes them in the object nfd-worker publishes. A character that the
// YAML output cannot carry faithfully (C0 controls but tab, DEL, C1
// controls including U+0085, U+2028, U+2029, U+FFFE and U+FFFF) makes the
// value unusable: the error names the character, never the value.
func cleanValue(s string) (string, error) {
	if utf8.ValidString(s) {
		if r, bad := firstUnprintable(s); bad {
			return "", fmt.Errorf("contains %U, which YAML output cannot carry", r)
		}
		return s, nil
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return cleanValue(string(b))
}

// firstUnprintable returns the first character of s outside YAML's
// printable set, counting the line breaks U+0085, U+2028 and U+2029 (which
// a YAML reader folds) as unprintable too.
func firstUnprintable(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20, r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfffe, r == 0xffff:
			return r, true
		}
	}
	return 0, false
}
