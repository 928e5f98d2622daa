package discover

import (
	"bytes"
	"debug/elf"
	"fmt"
	"strings"
)

// Names of the C library implementations system.libc reports.
const (
	libcGlibc   = "glibc"
	libcMusl    = "musl"
	libcUnknown = "unknown"
)

// libcPaths lists, below the host root, where nfd-worker v0.19 looks for
// the C library: glibc's libc.so.6 in three places, then musl's loader.
// Only linux/amd64 has a list; on other architectures nfd-worker's stub
// has none, so system.libc is always name=unknown there.
func libcPaths(arch string) []string {
	if arch != "amd64" {
		return nil
	}
	return []string{"usr/lib64/libc.so.6", "lib/x86_64-linux-gnu/libc.so.6", "lib/libc.so.6", "lib/ld-musl-x86_64.so.1"}
}

// readLibc returns the system.libc attributes: the first of libcPaths that
// exists is opened as an ELF file and classified by its .rodata. No file is
// name=unknown with an empty version; a file that is not a readable ELF
// file with a .rodata section is an error (the feature is left out).
func readLibc(h host, arch string) (map[string]string, error) {
	for _, rel := range libcPaths(arch) {
		if _, err := h.stat(rel); err != nil {
			continue
		}
		p, err := h.path(rel)
		if err != nil {
			return nil, err
		}
		rodata, err := elfRodata(p)
		if err != nil {
			return nil, err
		}
		name, version := classifyLibc(rodata)
		return map[string]string{"name": name, "version": version}, nil
	}
	return map[string]string{"name": libcUnknown, "version": ""}, nil
}

// elfRodata returns the .rodata section of an ELF file.
func elfRodata(path string) ([]byte, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open ELF binary: %w", err)
	}
	defer f.Close() //nolint:errcheck // read-only
	s := f.Section(".rodata")
	if s == nil {
		return nil, fmt.Errorf("missing .rodata section in %q", path)
	}
	data, err := s.Data()
	if err != nil {
		return nil, fmt.Errorf("cannot read .rodata from %q: %w", path, err)
	}
	return data, nil
}

// classifyLibc names the C library from its read-only data: glibc carries
// its "GNU C Library ... release version X.Y." banner, musl its name only
// (so its version is empty).
func classifyLibc(rodata []byte) (name, version string) {
	switch {
	case bytes.Contains(rodata, []byte("GNU C Library")):
		return libcGlibc, glibcVersion(rodata)
	case bytes.Contains(rodata, []byte("musl")):
		return libcMusl, ""
	}
	return libcUnknown, ""
}

// glibcVersion returns the last word, without its final dot, of the first
// line that mentions "release version".
func glibcVersion(rodata []byte) string {
	for line := range bytes.SplitSeq(rodata, []byte("\n")) {
		if !bytes.Contains(line, []byte("release version")) {
			continue
		}
		if words := bytes.Fields(line); len(words) > 0 {
			return strings.TrimSuffix(string(words[len(words)-1]), ".")
		}
	}
	return ""
}
