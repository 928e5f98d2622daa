package testkit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// build builds nfd-fn into dir with flags, under BuildEnv.
func build(dir string, flags []string) error {
	args := append(append([]string{"build", "-o", filepath.Join(dir, "nfd-fn")}, flags...), "github.com/nfd-fn/nfd-fn")
	cmd := exec.Command(GoCommand(), args...)
	cmd.Env = append(os.Environ(), BuildEnv()...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return nil
}

// BuildEnv is the environment every test builds nfd-fn under, with
// goflags added to GOFLAGS: static (CGO_ENABLED=0, as the image is) and
// -trimpath, as e2e builds it. -trimpath keeps the source's directory out
// of the build cache's keys, so builds from copies of the repository (the
// doc test's pages, the pre-commit hook's clone) reuse the packages the
// first build compiled instead of compiling them all again.
func BuildEnv(goflags ...string) []string {
	return []string{"CGO_ENABLED=0", "GOFLAGS=" + strings.Join(append([]string{"-trimpath"}, goflags...), " ")}
}

// GoCommand is the go command of the toolchain running the test.
func GoCommand() string { return filepath.Join(runtime.GOROOT(), "bin", "go") }

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
