//go:build unix

package krm

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/parallel"
)

// cutShortMapping maps a file of three pages without a lease, as a file
// beyond the lease cap or on a system that grants none is mapped, and
// then truncates it: its pages are gone.
func cutShortMapping(t *testing.T) (*Input, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fleet.yaml")
	size := 3 * os.Getpagesize()
	if err := os.WriteFile(path, []byte(strings.Repeat("a: b\n", size/5+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := mapFile(f, path, false, DefaultMaxBytes)
	if err != nil || in == nil || !in.mapped {
		t.Fatalf("not mapped: %v", err)
	}
	t.Cleanup(func() { in.Close() })
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	return in, path
}

// touch reads every page of data.
func touch(data []byte) (sum byte) {
	for i := 0; i < len(data); i += os.Getpagesize() {
		sum += data[i]
	}
	return sum
}

// faultOf runs f as the command does (fn.Guard): faults are panics, and
// the recovered one is FaultError's to name.
func faultOf(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if err = FaultError(r); err == nil {
				err = errors.New("not a fault on a mapped input")
			}
		}
	}()
	f()
	return nil
}

func TestMappedInputCutShortIsAnErrorNamingTheFile(t *testing.T) {
	in, path := cutShortMapping(t)
	err := faultOf(func() { touch(in.Data) })
	if !errors.Is(err, ErrVanished) || !strings.Contains(err.Error(), path) {
		t.Fatalf("got %v, want ErrVanished naming %s", err, path)
	}
}

func TestMappedInputCutShortFaultsOnAWorkerReachTheCaller(t *testing.T) {
	in, path := cutShortMapping(t)
	for name, run := range map[string]func(){
		"stream": func() { parallel.For(8, func(int) { touch(in.Data) }) },
		"ordered": func() {
			parallel.Ordered(8, func(int) byte { return touch(in.Data) }, func(int, byte) {})
		},
	} {
		t.Run(name, func(t *testing.T) {
			err := faultOf(run)
			if !errors.Is(err, ErrVanished) || !strings.Contains(err.Error(), path) {
				t.Fatalf("got %v, want ErrVanished naming %s", err, path)
			}
		})
	}
}

func TestFaultErrorIsNilForOtherPanics(t *testing.T) {
	for _, r := range []any{"a string", errors.New("an error"), nil} {
		if err := FaultError(r); err != nil {
			t.Errorf("FaultError(%v) = %v, want nil", r, err)
		}
	}
}
