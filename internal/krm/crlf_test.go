package krm

import (
	"strings"
	"testing"
)

// TestCRLFWriterMakesEveryLineEndCRLF writes text in pieces that split a
// CRLF pair, and checks that lone LFs become CRLF and CRLFs stay.
func TestCRLFWriterMakesEveryLineEndCRLF(t *testing.T) {
	in := "a: 1\r\nb: 2\nc: |\r\n  x\n\n"
	for size := 1; size <= len(in); size++ {
		var out strings.Builder
		w := &CRLFWriter{W: &out}
		for i := 0; i < len(in); i += size {
			piece := in[i:min(i+size, len(in))]
			if n, err := w.Write([]byte(piece)); err != nil || n != len(piece) {
				t.Fatalf("size %d: wrote %d of %d, %v", size, n, len(piece), err)
			}
		}
		if want := "a: 1\r\nb: 2\r\nc: |\r\n  x\r\n\r\n"; out.String() != want {
			t.Errorf("pieces of %d: %q, want %q", size, out.String(), want)
		}
	}
}

// TestUsesCRLFLooksAtTheFirstLine checks the line end UsesCRLF reads.
func TestUsesCRLFLooksAtTheFirstLine(t *testing.T) {
	for text, want := range map[string]bool{"a: 1\r\nb: 2\n": true, "a: 1\nb: 2\r\n": false, "a: 1": false, "\r\n": true, "": false} {
		if got := UsesCRLF([]byte(text)); got != want {
			t.Errorf("UsesCRLF(%q) = %v, want %v", text, got, want)
		}
	}
}
