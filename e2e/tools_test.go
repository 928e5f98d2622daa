package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	// The tests run nfd-fn as a separate binary, which go test's result
	// cache cannot see; linking its code into the test binary makes any
	// change to it invalidate cached results.
	_ "github.com/nfd-fn/nfd-fn/cli"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// e2eVersion is the version the test binary is built with, so that the
// version annotations in the expected files do not change with releases.
const e2eVersion = "v0.0.0-e2e"

// strictEnv makes a missing tool a failure instead of a skip.
const strictEnv = "NFD_FN_E2E"

// binDir holds the nfd-fn binary built for the tests; it goes first on
// PATH, so that `exec: nfd-fn` in Kptfiles and kustomize configs finds it.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nfd-fn-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := 1
	if err := buildNfdFn(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildNfdFn builds the module's binary into dir with the e2e version,
// under testkit.BuildEnv (static, -trimpath): its packages come from the
// build cache entries the other packages' tests fill.
func buildNfdFn(dir string) error {
	cmd := exec.Command("go", "build",
		"-ldflags", "-X github.com/nfd-fn/nfd-fn/pkg/version.Version="+e2eVersion,
		"-o", filepath.Join(dir, "nfd-fn"), "..")
	cmd.Env = append(os.Environ(), testkit.BuildEnv()...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building nfd-fn: %v\n%s", err, out)
	}
	return nil
}

// requireTool returns the path of a tool, or skips the test (fails it
// when NFD_FN_E2E=1) if the tool is not installed.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv(strictEnv) == "1" {
		t.Fatalf("%s is not installed, and %s=1 makes that a failure (.ci/run installs it)", name, strictEnv)
	}
	t.Skipf("%s is not installed: skipping (set %s=1 to make this a failure; .ci/run installs the tools)", name, strictEnv)
	return ""
}

// commandEnv is the environment for the tools: the test binary first on
// PATH, git isolated from the user's configuration, plus extra.
func commandEnv(extra map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "NODE_NAME", "GIT_DIR", "GIT_WORK_TREE":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@nfd-fn.invalid",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@nfd-fn.invalid")
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// run runs a command in dir and returns its stdout, stderr and exit code.
// Failing to start the command at all fails the test.
func run(t *testing.T, dir string, env []string, stdin []byte, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	return testkit.Exec(t, cmd, stdin)
}

// git runs git in dir and fails the test on any error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, dir, commandEnv(nil), nil, "git", args...)
	if code != 0 {
		t.Fatalf("git %v: exit code %d\n%s", args, code, errOut)
	}
	return out
}

// TestVersionFlagReportsTheBuildVersion checks that the version given to
// the linker is what `nfd-fn --version` and `nfd-fn version` print.
func TestVersionFlagReportsTheBuildVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		out, errOut, code := run(t, ".", commandEnv(nil), nil, filepath.Join(binDir, "nfd-fn"), arg)
		if code != 0 || strings.TrimSpace(out) != e2eVersion {
			t.Errorf("nfd-fn %s: exit code %d, stdout %q, stderr %q; want %q", arg, code, out, errOut, e2eVersion)
		}
	}
}
