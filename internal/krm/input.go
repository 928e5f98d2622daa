package krm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
)

// Input is the function's input held for reading. Where it can, it is a
// read-only memory mapping of a file (stdin redirected from a regular file,
// or a pipe spooled to an unlinked temporary file first), so that the bytes
// are not copied into the Go heap and the pages already used can be given
// back (Release): peak memory then holds the items being worked on, not the
// whole input. Elsewhere it is an ordinary buffer and Release does nothing.
//
// Data must never be written to: a mapped input is read-only. Data must
// not be read after Close; what reads it later than its reading (a lean
// NodeFeature's spec, decoded again to render it) holds it (Hold) and
// gets ErrClosed instead of a fault.
type Input struct {
	// Data is the whole input.
	Data []byte
	// mapped is set when Data is a memory mapping.
	mapped bool
	// lease, when held, keeps other processes from cutting the mapped
	// file short until Close.
	lease *fileLease
	// life holds Data readable between Hold and Unhold; Close waits.
	life lifetime
	// sinceSweep counts the bytes released since the last sweep.
	sinceSweep atomic.Int64
}

// sweepBytes is how many bytes Release is told of between two sweeps
// of the whole mapping.
const sweepBytes = 16 << 20

// Release gives back the memory pages that lie inside b (a slice of
// Data); the bytes stay readable and are read again from the file when
// touched. The pages b shares with its neighbours are left to the sweep
// of the whole mapping every sweepBytes: giving them back with each of
// thousands of small items would cost a system call and a fault each. It
// does nothing for an input that is not mapped, or for a b outside Data.
func (in *Input) Release(b []byte) {
	if in == nil || !in.mapped || len(b) == 0 {
		return
	}
	if in.sinceSweep.Add(int64(len(b))) >= sweepBytes {
		// The kernel maps a few pages around every fault (fault-around),
		// so reading one item maps the tails of its neighbours that were
		// already given back; those add up over thousands of items. A
		// sweep of the whole mapping every sweepBytes drops them.
		in.sinceSweep.Store(0)
		releasePages(in.Data, in.Data)
		return
	}
	releasePages(in.Data, b)
}

// Close unmaps a mapped input; no slice of Data may be used after it, and
// Hold fails from then on. It waits for the holds taken before it.
func (in *Input) Close() error {
	if in == nil {
		return nil
	}
	in.life.close()
	defer in.life.mu.Unlock()
	if !in.mapped {
		return nil
	}
	in.mapped = false
	err := unmap(in.Data)
	in.lease.release()
	in.lease = nil
	return err
}

// Hold keeps Data readable until Unhold: Close waits for it. It returns
// ErrClosed (and holds nothing) once the input is closed.
func (in *Input) Hold() error { return in.life.hold() }

// Unhold ends a Hold that succeeded.
func (in *Input) Unhold() { in.life.unhold() }

// OpenInput reads all of r, refusing more than limit bytes
// (DefaultMaxBytes when limit is 0). A regular file is mapped in place; any
// other reader (a pipe) is copied to a temporary file in os.TempDir() that
// is mapped and unlinked at once. When mapping is not possible (no
// temporary directory, a platform without mmap) the input is read into
// memory, as ReadInput does.
func OpenInput(r io.Reader, limit int) (*Input, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if f, ok := regularFile(r); ok {
		if in, err := mapFile(f, "stdin", true, limit); in != nil || err != nil {
			return in, err
		}
	} else if in, err := spool(r, limit); in != nil || err != nil {
		return in, err
	}
	data, err := ReadInput(r, limit)
	if err != nil {
		return nil, err
	}
	return &Input{Data: data}, nil
}

// regularFile returns r as a file when it is a regular file read from its
// start (a redirected stdin that nothing has read yet).
func regularFile(r io.Reader) (*os.File, bool) {
	f, ok := r.(*os.File)
	if !ok {
		return nil, false
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	off, err := f.Seek(0, io.SeekCurrent)
	return f, err == nil && off == 0
}

// spool copies r into an unlinked temporary file and maps it. It returns
// nil and no error when no temporary file can be made, for the caller to
// read r into memory instead; r is then untouched. When the temporary
// directory fills up on the way (or refuses a write), what was spooled is
// read back and the rest of r read after it, into memory.
func spool(r io.Reader, limit int) (*Input, error) {
	tmp, err := os.CreateTemp("", "nfd-fn-input-*")
	if err != nil {
		return nil, nil
	}
	defer tmp.Close()
	os.Remove(tmp.Name())
	n, pending, err := copyKeeping(tmp, io.LimitReader(r, int64(limit)+1))
	switch {
	case errors.Is(err, errSpoolWrite):
		return spooledToMemory(tmp, n, pending, r, limit)
	case err != nil:
		return nil, fmt.Errorf("spooling the input to %s (TMPDIR): %w", os.TempDir(), err)
	case n > int64(limit):
		return nil, fmt.Errorf("%w: the input is larger than %d bytes", ErrLimit, limit)
	}
	in, err := mapFile(tmp, "stdin", false, limit)
	if in == nil && err == nil {
		// Mapping is not possible here: read the spooled copy back.
		return spooledToMemory(tmp, n, nil, r, limit)
	}
	return in, err
}

// errSpoolWrite marks a write to the spool file that failed.
var errSpoolWrite = errors.New("writing the spool file")

// spoolBuffer is the size of the chunks spool copies.
const spoolBuffer = 256 << 10

// copyKeeping copies r to f in chunks, never through the kernel alone
// (splice), so that a chunk the file refuses is still at hand: pending,
// with errSpoolWrite. It returns the bytes f holds.
func copyKeeping(f *os.File, r io.Reader) (n int64, pending []byte, err error) {
	buf := make([]byte, spoolBuffer)
	for {
		k, rerr := r.Read(buf)
		if k > 0 {
			w, werr := f.Write(buf[:k])
			n += int64(w)
			if werr != nil {
				return n, buf[w:k], fmt.Errorf("%w: %w", errSpoolWrite, werr)
			}
		}
		if rerr == io.EOF {
			return n, nil, nil
		}
		if rerr != nil {
			return n, nil, rerr
		}
	}
}

// spooledToMemory reads the n bytes spooled to f back into memory,
// followed by pending and the rest of r.
func spooledToMemory(f *os.File, n int64, pending []byte, r io.Reader, limit int) (*Input, error) {
	head := make([]byte, n, int(n)+len(pending))
	if _, err := f.ReadAt(head, 0); err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading back the input spooled to %s (TMPDIR): %w", os.TempDir(), err)
	}
	data, err := ReadInput(io.MultiReader(bytes.NewReader(append(head, pending...)), r), limit)
	if err != nil {
		return nil, err
	}
	return &Input{Data: data}, nil
}
