package discover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassifyLibcReadsTheReadOnlyBanner(t *testing.T) {
	tests := []struct {
		name, rodata, wantName, wantVersion string
	}{
		{"glibc-banner", "x\x00GNU C Library (Debian GLIBC 2.36-9) stable release version 2.36.\nCopyright", "glibc", "2.36"},
		{"glibc-version-without-dot", "GNU C Library\nrelease version 2.17\n", "glibc", "2.17"},
		{"glibc-without-version-line", "GNU C Library\n", "glibc", ""},
		{"first-release-line-wins", "GNU C Library release version 2.1.\nrelease version 9.9.\n", "glibc", "2.1"},
		{"musl-has-no-version", "musl libc (x86_64)\nVersion %s\n", "musl", ""},
		{"neither", "uClibc\n", "unknown", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, version := classifyLibc([]byte(tt.rodata))
			if name != tt.wantName || version != tt.wantVersion {
				t.Errorf("classifyLibc = %q, %q; want %q, %q", name, version, tt.wantName, tt.wantVersion)
			}
		})
	}
}

func TestReadLibcOpensTheFirstExistingPath(t *testing.T) {
	elf := func(name string) string {
		b, err := os.ReadFile(filepath.Join(fixtureDir, "libc", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name    string
		arch    string
		files   map[string]string
		want    map[string]string
		wantErr string
	}{
		{"usr-lib64-first", "amd64", map[string]string{"usr/lib64/libc.so.6": elf("glibc.elf"), "lib/ld-musl-x86_64.so.1": elf("musl.elf")}, map[string]string{"name": "glibc", "version": "2.39"}, ""},
		{"multiarch-glibc", "amd64", map[string]string{"lib/x86_64-linux-gnu/libc.so.6": elf("glibc.elf")}, map[string]string{"name": "glibc", "version": "2.39"}, ""},
		{"musl-loader", "amd64", map[string]string{"lib/ld-musl-x86_64.so.1": elf("musl.elf")}, map[string]string{"name": "musl", "version": ""}, ""},
		{"other-libc", "amd64", map[string]string{"lib/libc.so.6": elf("other.elf")}, map[string]string{"name": "unknown", "version": ""}, ""},
		{"no-libc", "amd64", nil, map[string]string{"name": "unknown", "version": ""}, ""},
		{"arm64-has-no-paths", "arm64", map[string]string{"lib/libc.so.6": elf("glibc.elf")}, map[string]string{"name": "unknown", "version": ""}, ""},
		{"broken-first-file-is-an-error", "amd64", map[string]string{"usr/lib64/libc.so.6": elf("not-elf"), "lib/libc.so.6": elf("glibc.elf")}, nil, "cannot open ELF binary"},
		{"no-rodata-is-an-error", "amd64", map[string]string{"lib/libc.so.6": elf("no-rodata.elf")}, nil, "missing .rodata section"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for p, content := range tt.files {
				mustWrite(t, filepath.Join(root, p), content)
			}
			got, err := readLibc(newHost(root), tt.arch)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadLibcFollowsLinksInsideTheRoot(t *testing.T) {
	root := t.TempDir()
	b, err := os.ReadFile(filepath.Join(fixtureDir, "libc", "glibc.elf"))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, "usr/lib/x86_64-linux-gnu/libc.so.6"), string(b))
	mustLink(t, "usr/lib", filepath.Join(root, "lib"))
	got, err := readLibc(newHost(root), "amd64")
	if err != nil || got["name"] != "glibc" {
		t.Errorf("readLibc through the merged-/usr link = %v, %v", got, err)
	}
}
