package discover

import (
	"os"

	"github.com/google/go-cmp/cmp"
	"path/filepath"
	"testing"
)

func TestResolveInRootKeepsLinksInsideRoot(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "usr/lib/os-release"), "ID=x\n")
	mustWrite(t, filepath.Join(root, "sys/devices/pci0/0000:00:00.0/vendor"), "0x8086\n")
	mustLink(t, "/usr/lib/os-release", filepath.Join(root, "etc/os-release"))
	mustLink(t, "../../../devices/pci0/0000:00:00.0", filepath.Join(root, "sys/bus/pci/devices/0000:00:00.0"))
	mustLink(t, "../../../../../../../../etc/os-release", filepath.Join(root, "escape/a/link"))
	mustLink(t, "loop", filepath.Join(root, "loop"))
	h := newHost(root)
	tests := []struct {
		name, rel, want string
	}{
		{"absolute-link", "etc/os-release", "ID=x\n"},
		{"relative-link", "sys/bus/pci/devices/0000:00:00.0/vendor", "0x8086\n"},
		{"dotdot-clamped-at-root", "escape/a/link", "ID=x\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := h.readFile(tt.rel)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("read %q, want %q", b, tt.want)
			}
		})
	}
	if _, err := h.readFile("loop"); err == nil {
		t.Error("reading a symlink loop succeeded")
	}
}

func TestGlobListsDirectoryByDirectoryAsFilepathGlob(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"d/1-1/idProduct", "d/1-1.2/idProduct", "d/usb1/idProduct", "d/1-0:1.0/bInterfaceClass"} {
		mustWrite(t, filepath.Join(root, p), "x")
	}
	got, err := newHost(root).glob("d/*/idProduct")
	if err != nil {
		t.Fatal(err)
	}
	// filepath.Glob sorts each directory's names: "1-1" before "1-1.2",
	// although "1-1.2/idProduct" < "1-1/idProduct" as whole paths.
	want := []string{"d/1-1/idProduct", "d/1-1.2/idProduct", "d/usb1/idProduct"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("glob (-want +got):\n%s", diff)
	}
	if got, _ := newHost(root).glob("missing/*/idProduct"); len(got) != 0 {
		t.Errorf("glob of a missing directory = %v", got)
	}
}

// mustWrite creates a file and its parents.
func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustLink creates a symlink and its parents.
func mustLink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}
