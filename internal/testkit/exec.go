package testkit

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Build builds nfd-fn (the module's main package) into dir, with the go
// command of the toolchain running the test and flags (such as -ldflags)
// added, and returns the binary's path; a failed build fails the test.
func Build(t testing.TB, dir string, flags ...string) string {
	t.Helper()
	bin := filepath.Join(dir, "nfd-fn")
	args := append(append([]string{"build", "-o", bin}, flags...), "github.com/nfd-fn/nfd-fn")
	if out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Exec runs cmd (its directory and environment as the caller set them)
// with stdin (nil: none) and returns what it wrote on stdout and stderr
// and its exit code; a command that cannot be run at all fails the test.
func Exec(t testing.TB, cmd *exec.Cmd, stdin []byte) (stdout, stderr string, code int) {
	t.Helper()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("running %v: %v", cmd.Args, err)
	}
	return o.String(), e.String(), code
}
