//go:build unix

package krm

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapFile maps the whole of f, the file called name, read-only; shared
// says other processes can reach it (it is not an unlinked temporary). It
// returns nil and no error when the file cannot or should not be mapped
// (the caller then reads it): it reports a size of 0 (empty, or a
// /proc file whose size is not known before it is read), or another
// process has it open for writing (it may change while it is read:
// lease). It returns an error when the file is larger than limit.
//
// While the input is mapped, the file's lease (where the system grants
// one) makes a process that truncates or rewrites it wait until Close; a
// file cut short all the same faults on its vanished pages, which
// FaultError turns into ErrVanished naming it.
func mapFile(f *os.File, name string, shared bool, limit int) (*Input, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, nil
	}
	size := info.Size()
	if size > int64(limit) {
		return nil, fmt.Errorf("%w: the input is larger than %d bytes", ErrLimit, limit)
	}
	if size == 0 {
		return nil, nil
	}
	var held *fileLease
	if shared {
		var mayChange bool
		if held, mayChange = lease(f); mayChange {
			return nil, nil
		}
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		held.release()
		return nil, nil
	}
	register(data, name)
	return &Input{Data: data, mapped: true, lease: held}, nil
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

func unmap(data []byte) error {
	unregister(data)
	return unix.Munmap(data)
}
