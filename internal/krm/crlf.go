package krm

import (
	"bytes"
	"io"
)

// UsesCRLF reports whether text ends its first line with CRLF: a file
// written on Windows, or by an editor set to, whose output should keep
// its line ends.
func UsesCRLF(text []byte) bool {
	i := bytes.IndexByte(text, '\n')
	return i > 0 && text[i-1] == '\r'
}

// CRLFWriter writes to W what it is given with every line end CRLF: a
// lone LF becomes CRLF, a CRLF stays as it is (items kept as their own
// text already have them).
type CRLFWriter struct {
	W      io.Writer
	lastCR bool
}

// Write converts p's lone LFs and writes it; n counts the bytes of p.
func (c *CRLFWriter) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if _, err := c.W.Write(p); err != nil {
				return n, err
			}
			c.lastCR = p[len(p)-1] == '\r'
			return n + len(p), nil
		}
		lone := (i == 0 && !c.lastCR) || (i > 0 && p[i-1] != '\r')
		chunk := p[:i]
		if !lone {
			chunk = p[:i+1]
		}
		if _, err := c.W.Write(chunk); err != nil {
			return n, err
		}
		if lone {
			if _, err := io.WriteString(c.W, "\r\n"); err != nil {
				return n, err
			}
		}
		n, p, c.lastCR = n+i+1, p[i+1:], false
	}
	return n, nil
}
