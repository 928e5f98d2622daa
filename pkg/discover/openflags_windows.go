package discover

import "syscall"

// openFlags are the flags readRegular opens a host file with. Windows has
// no O_NOFOLLOW: there discover reads only snapshots of Linux hosts
// (--host-root), and readRegular's check that what it opened is a regular
// file still refuses devices and FIFOs.
const openFlags = syscall.O_NONBLOCK | syscall.O_CLOEXEC
