package krm

import (
	"errors"
	"sync"
)

// ErrClosed is what reading an input after its Close returns (Hold): the
// text of its items, a lean NodeFeature's among them, is gone.
var ErrClosed = errors.New("the input was closed: its objects cannot be read again")

// lifetime guards the bytes of an input: readers hold it between hold and
// unhold, and close, once, marks it closed after the holds taken before
// it, so that a read after Close is ErrClosed rather than a fault on an
// unmapped page. Its zero value is open.
type lifetime struct {
	mu     sync.RWMutex
	closed bool
}

// hold takes a read hold, or returns ErrClosed.
func (l *lifetime) hold() error {
	l.mu.RLock()
	if l.closed {
		l.mu.RUnlock()
		return ErrClosed
	}
	return nil
}

// unhold ends a hold.
func (l *lifetime) unhold() { l.mu.RUnlock() }

// close marks the lifetime closed and returns with its lock held, for the
// caller to free the bytes before unlocking l.mu.
func (l *lifetime) close() {
	l.mu.Lock()
	l.closed = true
}
