package inputs

import (
	"fmt"
	"io"
	"sync"

	"github.com/nfd-fn/nfd-fn/internal/krm"
)

// Stdin is standard input as the file argument "-": read (a pipe spooled
// to a temporary file and mapped, krm.OpenInput) on first use, and shared
// by every reader of one run, which reads it only once. Its owner closes
// it when the run is done.
type Stdin struct {
	r    io.Reader
	once sync.Once
	in   *krm.Input
	err  error
}

// NewStdin returns r as the file argument "-"; nil for a nil r (then
// "-" is a file of that name).
func NewStdin(r io.Reader) *Stdin {
	if r == nil {
		return nil
	}
	return &Stdin{r: r}
}

// open reads stdin, the first time it is asked for.
func (s *Stdin) open() (*krm.Input, error) {
	s.once.Do(func() {
		s.in, s.err = krm.OpenInput(s.r, 0)
		if s.err != nil {
			s.err = fmt.Errorf("reading stdin: %w", s.err)
		}
	})
	return s.in, s.err
}

// Close gives back what stdin was read into; nothing read from it may be
// used after.
func (s *Stdin) Close() error {
	if s == nil {
		return nil
	}
	return s.in.Close()
}
