package discover

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// maxSymlinks bounds symlink resolution, as the kernel's MAXSYMLINKS does.
const maxSymlinks = 40

// maxFileSize caps every file read under the host root. The largest files
// nfd-worker reads are kernel configs (about 300 KiB) and proc/cpuinfo of
// big machines (a few MiB); anything larger is not a host file.
const maxFileSize = 16 << 20

// errNotRegular is returned for FIFOs, sockets, devices and directories:
// they are never opened for reading, so a FIFO named etc/os-release cannot
// block discovery and a device cannot stream forever.
var errNotRegular = errors.New("not a regular file")

// host is the one reader of a host root file system: every file, directory
// listing and stat of discovery goes through it. Paths given to its methods
// are relative to the root ("sys/bus/pci/devices"); a leading "/" means the
// root too. Every symlink is resolved as if the root were "/", so absolute
// targets and ".." never leave it, and every open goes through an os.Root
// of the root directory, which refuses a path leaving it even when the tree
// changes under discovery; only regular files are opened, never more than
// maxFileSize bytes are read, and once ctx is done every read fails.
type host struct {
	// root is the root directory's path, which messages name.
	root string
	// dir is the root directory, nil when it could not be opened (openErr).
	dir     *os.Root
	openErr error
	ctx     context.Context
}

// newHost returns a host rooted at root ("" means "/"). A root that cannot
// be opened makes every read fail with the reason; close releases it.
func newHost(root string) host {
	if root == "" {
		root = "/"
	}
	root = filepath.Clean(root)
	dir, err := os.OpenRoot(root)
	if err != nil {
		err = fmt.Errorf("opening the host root %q: %w", root, unwrapPathError(err))
	}
	return host{root: root, dir: dir, openErr: err, ctx: context.Background()}
}

// close releases the root directory.
func (h host) close() {
	if h.dir != nil {
		h.dir.Close() //nolint:errcheck // a directory opened read-only
	}
}

// with returns the host reading under ctx.
func (h host) with(ctx context.Context) host {
	h.ctx = ctx
	return h
}

// path returns rel resolved inside the root, symlinks followed: a path
// relative to the root (for h.dir) and its full path (for messages).
func (h host) path(rel string) (name, full string, err error) {
	if err := h.ctx.Err(); err != nil {
		return "", "", fmt.Errorf("reading %q: %w", rel, err)
	}
	if h.openErr != nil {
		return "", "", h.openErr
	}
	name, err = resolveInRoot(h.dir, rel)
	return name, filepath.Join(h.root, name), err
}

// readFile reads the regular file rel, at most maxFileSize bytes.
func (h host) readFile(rel string) ([]byte, error) {
	return h.readFileMax(rel, maxFileSize)
}

// readFileMax reads the regular file rel; a file longer than max bytes is
// an error.
func (h host) readFileMax(rel string, max int64) ([]byte, error) {
	name, full, err := h.path(rel)
	if err != nil {
		return nil, err
	}
	b, err := readRegular(h.dir, name, max)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", full, err)
	}
	return b, nil
}

// readRegular opens name in dir without following a final symlink and
// without blocking, checks that it is a regular file and reads at most max
// bytes.
func readRegular(dir *os.Root, name string, max int64) ([]byte, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	defer f.Close() //nolint:errcheck // read-only
	fi, err := f.Stat()
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("larger than %d bytes", max)
	}
	return b, nil
}

// unwrapPathError drops the path of an *fs.PathError, which the caller
// already names, keeping the operation and the cause.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// readTrim reads the file rel and trims surrounding white space.
func (h host) readTrim(rel string) (string, error) {
	b, err := h.readFile(rel)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// readDir lists the directory rel, sorted by name. Entries are typed
// without following symlinks, as os.ReadDir types them.
func (h host) readDir(rel string) ([]fs.DirEntry, error) {
	name, full, err := h.path(rel)
	if err != nil {
		return nil, err
	}
	ents, err := readDirIn(h.dir, name)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", full, unwrapPathError(err))
	}
	return ents, nil
}

// readDirIn lists the directory name of dir, sorted by name.
func readDirIn(dir *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := dir.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close() //nolint:errcheck // read-only
	ents, err := f.ReadDir(-1)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

// names lists the entry names of the directory rel, sorted.
func (h host) names(rel string) ([]string, error) {
	ents, err := h.readDir(rel)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.Name()
	}
	return out, nil
}

// stat returns the file info of rel, following symlinks.
func (h host) stat(rel string) (fs.FileInfo, error) {
	name, full, err := h.path(rel)
	if err != nil {
		return nil, err
	}
	fi, err := h.dir.Lstat(name)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", full, unwrapPathError(err))
	}
	return fi, nil
}

// exists reports whether rel exists; an error other than "does not exist"
// is returned as is.
func (h host) exists(rel string) (bool, error) {
	_, err := h.stat(rel)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return false, err
}

// glob returns the root-relative paths matching pattern in the order
// filepath.Glob gives them (directory by directory, each sorted). Only the
// last path element may hold a wildcard besides one "*" directory level,
// which is all the sources need ("bus/usb/devices/*/idProduct").
func (h host) glob(pattern string) ([]string, error) {
	dir, file := path.Split(pattern)
	dir = strings.TrimSuffix(dir, "/")
	dirs := []string{dir}
	if base := path.Base(dir); strings.ContainsAny(base, "*?[") {
		parent := path.Dir(dir)
		names, err := h.names(parent)
		if err != nil {
			return nil, nil
		}
		dirs = dirs[:0]
		for _, n := range names {
			if ok, _ := path.Match(base, n); ok {
				dirs = append(dirs, path.Join(parent, n))
			}
		}
	}
	var out []string
	for _, d := range dirs {
		names, err := h.names(d)
		if err != nil {
			continue
		}
		for _, n := range names {
			if ok, err := path.Match(file, n); err != nil {
				return nil, fmt.Errorf("matching %q: %w", pattern, err)
			} else if ok {
				out = append(out, path.Join(d, n))
			}
		}
	}
	return out, nil
}

// resolveInRoot resolves rel below the root directory component by
// component, following every symlink (the last component's too) so that
// absolute targets and ".." stay inside it, and returns the path relative
// to it ("." for the root). A missing component ends the resolution; the
// caller's open reports it.
func resolveInRoot(dir *os.Root, rel string) (string, error) {
	todo := splitPath(rel)
	var done []string
	links := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case ".":
			continue
		case "..":
			if len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		cur := filepath.Join(append(done, c)...)
		fi, err := dir.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, c)
			continue
		}
		links++
		if links > maxSymlinks {
			return "", fmt.Errorf("resolving %q: too many levels of symbolic links", rel)
		}
		target, err := dir.Readlink(cur)
		if err != nil {
			return "", fmt.Errorf("reading link %q: %w", filepath.Join(dir.Name(), cur), unwrapPathError(err))
		}
		if strings.HasPrefix(target, "/") {
			done = nil
		}
		todo = append(splitPath(target), todo...)
	}
	return filepath.Join(append([]string{"."}, done...)...), nil
}

// splitPath splits p into its non-empty slash-separated components.
func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(filepath.ToSlash(p), "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}
