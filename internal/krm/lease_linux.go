package krm

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// maxLeases caps the leases held at once at a quarter of the descriptors
// the process may open (at least 64): each keeps one open until its input
// is closed, and a package of thousands of mapped files must not run out
// of them. Files mapped beyond it go without a lease.
var maxLeases = sync.OnceValue(func() int64 {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return 64
	}
	return max(int64(min(lim.Cur, 1<<30)/4), 64)
})

// leases counts the leases held.
var leases atomic.Int64

// fileLease is a read lease on a mapped file (fcntl F_SETLEASE): while it
// is held, a process that opens the file for writing or truncates it
// waits (up to the system's lease-break-time, 45 s by default) until it
// is released. It holds a descriptor of its own, so that the file it was
// taken on can be closed.
type fileLease struct{ fd int }

// lease takes a read lease on f. mayChange reports that another process
// has f open for writing (the lease is refused for that): its content may
// change while it is read. Where leases are not granted (a file of another
// user, a file system without them) it returns neither.
func lease(f *os.File) (held *fileLease, mayChange bool) {
	if leases.Add(1) > maxLeases() {
		leases.Add(-1)
		return nil, false
	}
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		leases.Add(-1)
		return nil, false
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK); err != nil {
		unix.Close(fd)
		leases.Add(-1)
		return nil, errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EBUSY)
	}
	return &fileLease{fd: fd}, false
}

// release gives the lease back; nothing for nil.
func (l *fileLease) release() {
	if l == nil {
		return
	}
	unix.FcntlInt(uintptr(l.fd), unix.F_SETLEASE, unix.F_UNLCK)
	unix.Close(l.fd)
	leases.Add(-1)
}
