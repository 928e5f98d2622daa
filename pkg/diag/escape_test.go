package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEscapeNeutralisesTerminalControls(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain-text-unchanged", `rule "a" at spec.rules[0] \d`, `rule "a" at spec.rules[0] \d`},
		{"non-ascii-letters-unchanged", "Käse 日本 ünïcode", "Käse 日本 ünïcode"},
		{"newline-and-tab", "a\nb\tc\rd", `a\nb\tc\rd`},
		{"ansi-colour-sequence", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"nul-and-del", "a\x00b\x7fc", `a\x00b\x7fc`},
		{"c1-control-nel", "a\u0085b\u009bc", `a\u0085b\u009bc`},
		{"bidi-override", "abc\u202edcba", `abc\u202edcba`},
		{"bidi-embeddings-and-isolates", "\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069", `\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069`},
		{"directional-marks-and-separators", "\u200e\u200f\u061c\u2028\u2029", `\u200e\u200f\u061c\u2028\u2029`},
		{"invalid-utf8", "a\xffb\xc3", `a\xffb\xc3`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Escape(tc.in); got != tc.want {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// hostileName carries a newline, an ANSI sequence that clears the screen
// and a right-to-left override.
const hostileName = "evil\n\x1b[2J\u202etxt.exe"

func hasRawControl(s string) bool {
	return strings.ContainsAny(s, "\n\x1b\u202e")
}

func TestTextOfAHostileNameIsOneSafeLine(t *testing.T) {
	d := Diagnostic{Severity: Error, Object: rule(hostileName), Field: "metadata.name",
		Pos: Position{File: "rules/a\x1b.yaml", Line: 1, Column: 1}, Message: "bad name " + hostileName}
	got := d.Text()
	if hasRawControl(got) {
		t.Fatalf("Text() keeps raw controls: %q", got)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, List{d}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 1 {
		t.Errorf("WriteText wrote %d lines for one diagnostic: %q", n, buf.String())
	}
	if !strings.Contains(got, `evil\n\x1b[2J\u202etxt.exe`) {
		t.Errorf("Text() does not show the escaped name: %q", got)
	}
}

func TestSARIFMessageOfAHostileNameIsEscaped(t *testing.T) {
	d := Diagnostic{Severity: Error, Check: "object-name", Object: rule(hostileName), Message: hostileName}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, List{d}, "test"); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if msg := log.Runs[0].Results[0].Message.Text; hasRawControl(msg) {
		t.Errorf("SARIF message keeps raw controls: %q", msg)
	}
}
