package krm

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"unsafe"
)

// mapFrom is the size from which OpenFile maps a file rather than reading
// it: below it, the system calls cost more than the copy.
const mapFrom = 64 << 10

// OpenFile opens the regular file at path as an Input, refusing more than
// limit bytes (DefaultMaxBytes when 0): mapped when it is large, read
// into memory when small. Anything but a regular file (a FIFO, a device)
// is refused rather than read, for it could block forever.
func OpenFile(path string, limit int) (*Input, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	// Opening a FIFO blocks until something writes to it: refused before.
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("reading %s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("reading %s: not a regular file", path)
	}
	if info.Size() > int64(limit) {
		return nil, fmt.Errorf("reading %s: %w: %d bytes, more than %d", path, ErrLimit, info.Size(), limit)
	}
	if info.Size() >= mapFrom {
		if in, err := mapFile(f, path, true, limit); in != nil || err != nil {
			return in, err
		}
	}
	data, err := ReadInput(f, limit)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return &Input{Data: data}, nil
}

// Inputs are the inputs of one run (a package's files), released and
// closed together. What reads their bytes after their reading holds them
// (Hold), and gets ErrClosed once they are closed.
type Inputs struct {
	// byAddress are the mapped inputs, ordered by where their Data lies.
	byAddress []*Input
	all       []*Input
	// life holds every input readable between Hold and Unhold.
	life lifetime
}

// Add adds an input.
func (ins *Inputs) Add(in *Input) {
	ins.all = append(ins.all, in)
	if !in.mapped {
		return
	}
	i, _ := slices.BinarySearchFunc(ins.byAddress, in, func(a, b *Input) int { return compareAddr(a.Data, b.Data) })
	ins.byAddress = slices.Insert(ins.byAddress, i, in)
}

// Borrow adds an input that another owner closes (stdin, shared by the
// readers of one run): it is released with the others but not closed.
func (ins *Inputs) Borrow(in *Input) {
	ins.Add(in)
	ins.all = ins.all[:len(ins.all)-1]
}

// Release is Input.Release on the input b lies in; it does nothing for b
// in no mapped input.
func (ins *Inputs) Release(b []byte) {
	if ins == nil || len(b) == 0 || len(ins.byAddress) == 0 {
		return
	}
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	// The last input starting at or before b.
	i, found := slices.BinarySearchFunc(ins.byAddress, at, func(in *Input, at uintptr) int {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(in.Data)))
		switch {
		case base < at:
			return -1
		case base > at:
			return 1
		}
		return 0
	})
	if !found {
		i--
	}
	if i >= 0 {
		ins.byAddress[i].Release(b)
	}
}

// Hold keeps every input's Data readable until Unhold: Close waits for
// it. It returns ErrClosed (and holds nothing) once the inputs are closed;
// a borrowed input counts as closed with them.
func (ins *Inputs) Hold() error { return ins.life.hold() }

// Unhold ends a Hold that succeeded.
func (ins *Inputs) Unhold() { ins.life.unhold() }

// Close closes every input; no slice of their Data may be used after it,
// and Hold fails from then on. It waits for the holds taken before it.
func (ins *Inputs) Close() error {
	ins.life.close()
	defer ins.life.mu.Unlock()
	var errs []error
	for _, in := range ins.all {
		errs = append(errs, in.Close())
	}
	return errors.Join(errs...)
}

func compareAddr(a, b []byte) int {
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	switch {
	case pa < pb:
		return -1
	case pa > pb:
		return 1
	}
	return 0
}
