package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// maxSymlinks bounds symlink resolution, as the kernel's MAXSYMLINKS does.
const maxSymlinks = 40

// host reads files of a host root filesystem. Paths given to its methods
// are relative to the root ("sys/bus/pci/devices"). When the root is not
// "/", symlinks are resolved inside the root, so an absolute link target
// such as /usr/lib/os-release names <root>/usr/lib/os-release.
type host struct {
	root string
}

// newHost returns a host rooted at root ("" means "/").
func newHost(root string) host {
	if root == "" {
		root = "/"
	}
	return host{root: filepath.Clean(root)}
}

// path returns the real path of rel, resolving symlinks inside the root.
func (h host) path(rel string) (string, error) {
	if h.root == "/" {
		return filepath.Join("/", rel), nil
	}
	return resolveInRoot(h.root, rel)
}

// readFile reads the file rel.
func (h host) readFile(rel string) ([]byte, error) {
	p, err := h.path(rel)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", p, err)
	}
	return b, nil
}

// readTrim reads the file rel and trims surrounding white space.
func (h host) readTrim(rel string) (string, error) {
	b, err := h.readFile(rel)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// readDir lists the directory rel, sorted by name.
func (h host) readDir(rel string) ([]fs.DirEntry, error) {
	p, err := h.path(rel)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", p, err)
	}
	return ents, nil
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
	p, err := h.path(rel)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", p, err)
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

// glob returns the root-relative paths matching pattern, sorted. Only the
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
	sort.Strings(out)
	return out, nil
}

// resolveInRoot resolves rel below root component by component, following
// symlinks so that absolute targets and ".." stay inside root.
func resolveInRoot(root, rel string) (string, error) {
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
		cur := filepath.Join(root, filepath.Join(done...), c)
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			// A missing component is left for the caller's open to report.
			done = append(done, c)
			continue
		}
		links++
		if links > maxSymlinks {
			return "", fmt.Errorf("resolving %q: too many levels of symbolic links", rel)
		}
		target, err := os.Readlink(cur)
		if err != nil {
			return "", fmt.Errorf("reading link %q: %w", cur, err)
		}
		if strings.HasPrefix(target, "/") {
			done = nil
		}
		todo = append(splitPath(target), todo...)
	}
	return filepath.Join(root, filepath.Join(done...)), nil
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
