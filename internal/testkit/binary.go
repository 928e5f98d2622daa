package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Shared state of one test binary: the directory Main makes and removes,
// and what Binary and Shared made in it, by key.
var (
	sharedMu   sync.Mutex
	sharedRoot string
	sharedDone = map[string]*sharedEntry{}
)

// sharedEntry is one thing made once: its directory, and the error that
// made it unusable.
type sharedEntry struct {
	once sync.Once
	dir  string
	err  error
}

// Main runs a package's tests and removes, afterwards, what Binary and
// Shared made for them. A package whose tests use either has
//
//	func TestMain(m *testing.M) { testkit.Main(m) }
//
// (or calls testkit.Main at the end of its own TestMain).
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "nfd-fn-testkit-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		os.Exit(1)
	}
	sharedMu.Lock()
	sharedRoot = dir
	sharedMu.Unlock()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Shared returns a directory that fill filled once for this test binary,
// the first time any test asked for key; later calls, from any test or
// goroutine, wait for that and get the same directory. A fill that failed
// fails every test that asks. It lives until Main returns, so tests share
// what is slow to make (a built binary, a snapshot repository, a
// pre-commit home with its hooks installed); they must not change it.
func Shared(t testing.TB, key string, fill func(dir string) error) string {
	t.Helper()
	sharedMu.Lock()
	root := sharedRoot
	e := sharedDone[key]
	if e == nil {
		e = &sharedEntry{}
		sharedDone[key] = e
	}
	sharedMu.Unlock()
	if root == "" {
		t.Fatal("testkit.Shared needs the package's TestMain to call testkit.Main(m)")
	}
	e.once.Do(func() {
		e.dir, e.err = os.MkdirTemp(root, "shared-")
		if e.err == nil {
			e.err = fill(e.dir)
		}
	})
	if e.err != nil {
		t.Fatalf("making the shared %s: %v", key, e.err)
	}
	return e.dir
}

// Binary returns nfd-fn built with flags (such as -ldflags) once per test
// binary, whichever test asks first (Shared): the tests of a package that
// run the real binary share one build instead of linking one each. It is
// built under BuildEnv, as the doc test's `go run .` and the pre-commit
// hook's install are, so that all of them take the compiled packages from
// the same entries of the build cache. The binary must not be changed; a
// test that needs another version passes other flags.
func Binary(t testing.TB, flags ...string) string {
	t.Helper()
	dir := Shared(t, "nfd-fn binary built with flags "+strings.Join(flags, " "), func(dir string) error {
		return build(dir, flags)
	})
	return filepath.Join(dir, "nfd-fn")
}
