package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeDist writes files into a fresh directory and returns it.
func writeDist(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		// The tools module keeps its dependencies few: no testkit here.
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sha256 of "a" and of "b".
const (
	sumA = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
	sumB = "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d"
)

func TestChecksumsMustMatchTheFiles(t *testing.T) {
	dist := writeDist(t, map[string]string{"a.tar.gz": "a", "b.zip": "b", "checksums.txt": sumA + "  a.tar.gz\n" + sumA + "  b.zip\n"})
	sums, err := readChecksums(dist)
	if err != nil {
		t.Fatal(err)
	}
	problems := verifyChecksums(dist, sums)
	if len(problems) != 1 || !strings.Contains(problems[0], "b.zip") {
		t.Errorf("want one problem naming b.zip, got %v", problems)
	}
	if _, err := readChecksums(writeDist(t, map[string]string{"checksums.txt": "not a checksum line\n"})); err == nil {
		t.Error("a malformed checksums.txt was read")
	}
}

func TestArchiveNamesGiveVersionAndPlatform(t *testing.T) {
	for name, want := range map[string]string{
		"nfd-fn_0.1.0_linux_amd64.tar.gz":         "0.1.0 linux/amd64",
		"nfd-fn_0.1.0-snapshot_windows_amd64.zip": "0.1.0-snapshot windows/amd64",
		"nfd-fn_0.1.0_linux_amd64.cdx.json":       "",
		"other_0.1.0_linux_amd64.tar.gz":          "",
		"nfd-fn_0.1.0_linux.tar.gz":               "",
	} {
		a, ok := parseArchiveName(name)
		got := ""
		if ok {
			got = a.version + " " + a.platform()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

func TestBinaryPlatformReadsTheHeader(t *testing.T) {
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if got, err := binaryPlatform(self); err != nil || got != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("the test binary is for %q (%v), want %s/%s", got, err, runtime.GOOS, runtime.GOARCH)
	}
	if _, err := binaryPlatform([]byte("#!/bin/sh\n")); err == nil {
		t.Error("a script passed as an executable")
	}
}

func TestKrewAndCaskMustPointAtTheArchivesWithTheirSums(t *testing.T) {
	archives := []archive{{name: "nfd-fn_1.0.0_linux_amd64.tar.gz", version: "1.0.0", os: "linux", arch: "amd64"}}
	sums := map[string]string{archives[0].name: sumA}
	krew := func(sum, arch string) string {
		return "spec:\n  platforms:\n  - bin: nfd-fn\n    uri: https://x/v1.0.0/nfd-fn_1.0.0_linux_amd64.tar.gz\n    sha256: " + sum +
			"\n    selector: {matchLabels: {os: linux, arch: " + arch + "}}\n"
	}
	cask := func(sum string) string {
		return "cask \"nfd-fn\" do\n  version \"1.0.0\"\n  on_linux do\n    url \"https://x/nfd-fn_#{version}_linux_amd64.tar.gz\"\n    sha256 \"" + sum + "\"\n  end\nend\n"
	}
	tests := []struct {
		name       string
		krew, cask string
		want       int
	}{
		{"agree", krew(sumA, "amd64"), cask(sumA), 0},
		{"krew-sum", krew(sumB, "amd64"), cask(sumA), 2},
		{"krew-arch", krew(sumA, "arm64"), cask(sumA), 2},
		{"cask-sum", krew(sumA, "amd64"), cask(sumB), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dist := writeDist(t, map[string]string{"krew/nfd-fn.yaml": tc.krew, "homebrew/Casks/nfd-fn.rb": tc.cask})
			problems := append(checkKrew(dist, archives, sums), checkCask(dist, archives, sums)...)
			if len(problems) != tc.want {
				t.Errorf("want %d problems, got %v", tc.want, problems)
			}
		})
	}
}
