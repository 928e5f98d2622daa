package krm

import (
	"golang.org/x/sys/unix"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMappedFileOpenForWritingElsewhereIsReadNotMapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "being-written.yaml")
	if err := os.WriteFile(path, []byte(strings.Repeat("a: b\n", mapFrom/5+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	in, err := OpenFile(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if in.mapped {
		t.Fatal("a file another process has open for writing was mapped: it may be cut short while read")
	}
}

func TestMappedFileIsLeasedUntilClosed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "leased.yaml")
	if err := os.WriteFile(path, []byte(strings.Repeat("a: b\n", mapFrom/5+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	before := leases.Load()
	in, err := OpenFile(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !in.mapped || in.lease == nil || leases.Load() != before+1 {
		t.Fatalf("mapped %v, lease %v, %d leases held (%d before)", in.mapped, in.lease, leases.Load(), before)
	}
	// While leased, an opener that will not wait is refused: the file
	// cannot be cut short under the mapping.
	if w, err := os.OpenFile(path, os.O_WRONLY|syscallNonblock, 0); err == nil {
		w.Close()
		t.Fatal("the leased file was opened for writing at once")
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	if leases.Load() != before {
		t.Fatalf("%d leases held after Close, want %d", leases.Load(), before)
	}
	w, err := os.OpenFile(path, os.O_WRONLY|syscallNonblock, 0)
	if err != nil {
		t.Fatalf("the file is still leased after Close: %v", err)
	}
	w.Close()
}

const syscallNonblock = unix.O_NONBLOCK
