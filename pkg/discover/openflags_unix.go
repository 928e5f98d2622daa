//go:build !windows

package discover

import "syscall"

// openFlags are the flags readRegular opens a host file with: no blocking
// on a FIFO, no following a final symlink, closed on exec.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOFOLLOW | syscall.O_CLOEXEC
