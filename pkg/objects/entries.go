package objects

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// unreadableEntry says why the directory entry d at path, named as a
// manifest, cannot be read as one; "" when it can (a regular file, or a
// symlink to one).
func unreadableEntry(path string, d fs.DirEntry) string {
	if d.Type().IsRegular() {
		return ""
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return notRegular(d.Type())
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return "a symlink loop"
	case errors.Is(err, fs.ErrNotExist):
		return "a dangling symlink: its target does not exist"
	case err != nil:
		return "a symlink that cannot be followed: " + err.Error()
	case info.Mode().IsRegular():
		return ""
	}
	return "a symlink to " + notRegular(info.Mode().Type())
}

// notRegular names a kind of file that is not a regular one.
func notRegular(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO, not a regular file"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	case m&fs.ModeDevice != 0:
		return "a device, not a regular file"
	case m&fs.ModeDir != 0:
		return "a directory, not a regular file"
	}
	return "not a regular file"
}
