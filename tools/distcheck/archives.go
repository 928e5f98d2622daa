package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// archive is one release archive, as its name says:
// nfd-fn_<version>_<os>_<arch>.<tar.gz|zip>.
type archive struct {
	name, version, os, arch string
}

// platform is the archive's os/arch.
func (a archive) platform() string { return a.os + "/" + a.arch }

// parseArchiveName reads an archive's name; ok is false for other files.
func parseArchiveName(name string) (archive, bool) {
	base, found := strings.CutSuffix(name, ".tar.gz")
	if !found {
		base, found = strings.CutSuffix(name, ".zip")
	}
	rest, prefixed := strings.CutPrefix(base, "nfd-fn_")
	parts := strings.Split(rest, "_")
	if !found || !prefixed || len(parts) != 3 {
		return archive{}, false
	}
	return archive{name: name, version: parts[0], os: parts[1], arch: parts[2]}, true
}

// findArchives lists dist's archives, one for each of platforms, each
// named in checksums.txt.
func findArchives(dist string, sums map[string]string) ([]archive, []string) {
	entries, err := os.ReadDir(dist)
	if err != nil {
		return nil, []string{err.Error()}
	}
	var archives []archive
	var problems []string
	seen := map[string]bool{}
	for _, e := range entries {
		a, ok := parseArchiveName(e.Name())
		if !ok {
			continue
		}
		archives = append(archives, a)
		seen[a.platform()] = true
		if _, ok := sums[a.name]; !ok {
			problems = append(problems, fmt.Sprintf("checksums.txt does not name %s", a.name))
		}
		if !slices.Contains(platforms, a.platform()) {
			problems = append(problems, fmt.Sprintf("%s is for %s, which is not a release platform", a.name, a.platform()))
		}
	}
	for _, p := range platforms {
		if !seen[p] {
			problems = append(problems, fmt.Sprintf("no archive for %s in %s", p, dist))
		}
	}
	return archives, problems
}

// checkBinary checks that the archive's nfd-fn is built for its platform,
// and on the host's platform that it prints the archive's version.
func (a archive) checkBinary(dist string) []string {
	bin, err := a.binary(dist)
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", a.name, err)}
	}
	if got, err := binaryPlatform(bin); err != nil || got != a.platform() {
		return []string{fmt.Sprintf("%s: the binary is for %q (%v), want %s", a.name, got, err, a.platform())}
	}
	if a.platform() != runtime.GOOS+"/"+runtime.GOARCH {
		return nil
	}
	return a.checkVersion(bin)
}

// checkVersion runs the binary's --version.
func (a archive) checkVersion(bin []byte) []string {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("distcheck-%d-nfd-fn", os.Getpid()))
	if err := os.WriteFile(path, bin, 0o755); err != nil {
		return []string{err.Error()}
	}
	defer os.Remove(path)
	out, err := exec.Command(path, "--version").Output()
	if got := strings.TrimSpace(string(out)); err != nil || got != "v"+a.version {
		return []string{fmt.Sprintf("%s: nfd-fn --version printed %q (%v), want v%s", a.name, got, err, a.version)}
	}
	return nil
}

// binary reads the archive's nfd-fn (nfd-fn.exe on Windows).
func (a archive) binary(dist string) ([]byte, error) {
	want := "nfd-fn"
	if a.os == "windows" {
		want += ".exe"
	}
	path := filepath.Join(dist, a.name)
	if strings.HasSuffix(a.name, ".zip") {
		return zipMember(path, want)
	}
	return tarMember(path, want)
}

// zipMember reads the file name from the zip archive at path.
func zipMember(path, name string) ([]byte, error) {
	r, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// tarMember reads the file name from the gzipped tar archive at path.
func tarMember(path, name string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	r := tar.NewReader(gz)
	for {
		h, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("no %s in the archive", name)
		}
		if err != nil {
			return nil, err
		}
		if h.Name == name {
			return io.ReadAll(r)
		}
	}
}

// binaryPlatform tells the os/arch an executable is built for from its
// ELF, Mach-O or PE header.
func binaryPlatform(bin []byte) (string, error) {
	r := bytes.NewReader(bin)
	if f, err := elf.NewFile(r); err == nil {
		return "linux/" + map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64"}[f.Machine], nil
	}
	if f, err := macho.NewFile(r); err == nil {
		return "darwin/" + map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}[f.Cpu], nil
	}
	if f, err := pe.NewFile(r); err == nil {
		return "windows/" + map[uint16]string{pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64"}[f.Machine], nil
	}
	return "", errors.New("not an ELF, Mach-O or PE executable")
}
