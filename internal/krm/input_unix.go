//go:build unix

package krm

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapFile maps the whole of f read-only. It returns nil and no error when
// the file cannot be mapped (the caller then reads it), and an error when
// it is larger than limit. An empty file is an empty, unmapped input.
func mapFile(f *os.File, limit int) (*Input, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, nil
	}
	size := info.Size()
	if size > int64(limit) {
		return nil, fmt.Errorf("%w: the input is larger than %d bytes", ErrLimit, limit)
	}
	if size == 0 {
		return &Input{Data: []byte{}}, nil
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil
	}
	return &Input{Data: data, mapped: true}, nil
}

// releasePages drops the whole pages inside b (and the mapping's last
// page when b reaches it) from the process's memory (MADV_DONTNEED: the next read faults them in again
// from the file).
func releasePages(data, b []byte) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if start < base || start+uintptr(len(b)) > base+uintptr(len(data)) {
		return
	}
	page := uintptr(os.Getpagesize())
	from := (start - base + page - 1) &^ (page - 1)
	to := (start - base + uintptr(len(b))) &^ (page - 1)
	if start-base+uintptr(len(b)) >= uintptr(len(data)) {
		// The mapping's last page, partly past the end of the file: the
		// kernel rounds the length up to it.
		to = uintptr(len(data))
	}
	if to <= from {
		return
	}
	_ = unix.Madvise(data[from:to], unix.MADV_DONTNEED)
}

func unmap(data []byte) error { return unix.Munmap(data) }
