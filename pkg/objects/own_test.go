package objects

import (
	"errors"
	"testing"
)

// closer records its Close and fails with err.
type closer struct {
	closed int
	err    error
}

func (c *closer) Close() error { c.closed++; return c.err }

// TestSetCloseClosesWhatItOwnsOnce closes every input the set owns, joins
// their errors, and owns nothing after.
func TestSetCloseClosesWhatItOwnsOnce(t *testing.T) {
	failing := errors.New("unmap failed")
	a, b := &closer{}, &closer{err: failing}
	s := &Set{}
	s.Own(a)
	s.Own(b)
	if err := s.Close(); !errors.Is(err, failing) {
		t.Errorf("Close = %v, want the failing input's error", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if a.closed != 1 || b.closed != 1 {
		t.Errorf("inputs closed %d and %d times, want once each", a.closed, b.closed)
	}
}
