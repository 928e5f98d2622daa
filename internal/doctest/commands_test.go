package doctest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// strictEnv makes a missing kpt or kustomize a failure instead of a skip,
// as in e2e/.
const strictEnv = "NFD_FN_E2E"

// stubEnv names the stub a run of the test binary stands in for.
const stubEnv = "NFD_FN_DOCTEST_STUB"

// stubNames are the commands the stub directory replaces.
var stubNames = []string{"docker", "go", "kubectl", "make"}

// excludedPages are pages with shell blocks this test does not run, and
// why.
var excludedPages = map[string]string{}

func TestMain(m *testing.M) {
	if name := os.Getenv(stubEnv); name != "" {
		os.Unsetenv(stubEnv)
		os.Exit(runStub(name, os.Args[1:]))
	}
	testkit.Main(m)
}

// repoRoot is the directory holding go.mod above the working directory,
// so that the test finds the pages wherever go test runs it from.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// documentedPages are the pages whose commands run, relative to root.
func documentedPages(t *testing.T, root string) []string {
	t.Helper()
	pages := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "examples/*/README.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, _ := filepath.Rel(root, p)
			if _, skip := excludedPages[filepath.ToSlash(rel)]; !skip {
				pages = append(pages, filepath.ToSlash(rel))
			}
		}
	}
	sort.Strings(pages[1:])
	return pages
}

// shellBlocks reads the pages and returns their shell blocks; a block
// without a language, or a console block that is not a "$ go run ."
// transcript, is an error.
func shellBlocks(t *testing.T, root string, pages []string) []block {
	t.Helper()
	var out []block
	for _, p := range pages {
		blocks, err := readBlocks(root, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			switch {
			case b.lang == "":
				t.Errorf("%s: the block has no language: mark it sh to have it run, or text", b.where())
			case b.lang == "console":
				if len(b.lines) == 0 || !strings.HasPrefix(b.lines[0], "$ go run . ") {
					t.Errorf("%s: a console block must be a \"$ go run . ARGS\" transcript (cli/readme_test.go runs those); show other commands in an sh block", b.where())
				}
			case shellLangs[b.lang]:
				out = append(out, b)
			}
		}
	}
	return out
}

// TestEveryDocumentedCommandRunsVerbatim runs every shell block of the
// README, docs/ and the examples' READMEs as bash runs it, from a scratch
// copy of the repository, and checks its exit code; afterwards the
// repository holds exactly the files it held before.
func TestEveryDocumentedCommandRunsVerbatim(t *testing.T) {
	root := repoRoot(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	blocks := shellBlocks(t, root, documentedPages(t, root))
	if len(blocks) < 10 {
		t.Fatalf("found %d shell blocks; the README alone shows more", len(blocks))
	}
	byPage := map[string][]block{}
	var pages []string
	for _, b := range blocks {
		if byPage[b.page] == nil {
			pages = append(pages, b.page)
		}
		byPage[b.page] = append(byPage[b.page], b)
	}
	before := repoState(t, root)
	env := newSandbox(t, root)
	t.Run("pages", func(t *testing.T) {
		for _, page := range pages {
			t.Run(page, func(t *testing.T) {
				t.Parallel()
				w := env.newWorkspace(t)
				for _, b := range byPage[page] {
					t.Run("line-"+strconv.Itoa(b.line), func(t *testing.T) { env.runBlock(t, bash, w, b) })
				}
			})
		}
	})
	if after := repoState(t, root); after != before {
		t.Errorf("the documented commands left files in the repository:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// repoState lists the repository's changed, new and ignored files (git
// status), or "" without git.
func repoState(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "status", "--porcelain", "--ignored", "--untracked-files=all").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// sandbox is what every block shares: the repository, the nfd-fn binary,
// the stubs, the local upstream for kpt pkg get and the Go environment.
type sandbox struct {
	root    string
	scratch string
	binDir  string // nfd-fn, and GOBIN
	stubDir string
	goEnv   []string // GOCACHE, GOMODCACHE, GOPATH of this machine
	tools   map[string]string
	realGo  string

	originOnce sync.Once
	originErr  error
}

func newSandbox(t *testing.T, root string) *sandbox {
	t.Helper()
	s := &sandbox{root: root, scratch: t.TempDir(), tools: map[string]string{}}
	s.binDir = filepath.Join(s.scratch, "bin")
	s.stubDir = filepath.Join(s.scratch, "stubs")
	for _, d := range []string{s.binDir, s.stubDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	s.realGo = goBin
	out, err := exec.Command(goBin, "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	vals := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(vals) != 3 {
		t.Fatalf("go env printed %q", out)
	}
	// Under testkit.BuildEnv, every page's copy of the repository builds
	// from the same cache entries as testkit.Binary: `go run .` compiles
	// nothing and links once for all pages.
	s.goEnv = append([]string{"GOCACHE=" + vals[0], "GOMODCACHE=" + vals[1], "GOPATH=" + vals[2], "GOTOOLCHAIN=local"}, testkit.BuildEnv()...)
	// A link, so that `go install .` (GOBIN) replaces the link and not the
	// shared binary.
	if err := os.Symlink(testkit.Binary(t), filepath.Join(s.binDir, "nfd-fn")); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range stubNames {
		script := fmt.Sprintf("#!/bin/sh\n%s=%s exec %s \"$@\"\n", stubEnv, name, shellQuote(self))
		if err := os.WriteFile(filepath.Join(s.stubDir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tool := range []string{needKpt, needKustomize} {
		if p, ok := lookTool(tool, vals[2]); ok {
			s.tools[tool] = p
		}
	}
	return s
}

// lookTool finds an installed tool on PATH or in GOPATH/bin, as e2e does.
func lookTool(name, gopath string) (string, bool) {
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	p := filepath.Join(gopath, "bin", name)
	if _, err := os.Stat(p); err == nil {
		return p, true
	}
	return "", false
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// originSkips are the directories the local upstream leaves out: the
// pages fetch examples only, and every page's kpt pkg get clones the whole
// upstream, so the 14 MB of test fixtures would be copied a dozen times.
var originSkips = []string{"testdata"}

// origin makes the local repository `kpt pkg get` fetches from instead of
// GitHub: the repository's files (but originSkips), committed on main and
// tagged with the release. It is made once, the first time a block needs
// it.
func (s *sandbox) origin(t *testing.T) string {
	dir := filepath.Join(s.scratch, "origin")
	s.originOnce.Do(func() {
		if s.originErr = copyRepo(s.root, dir, originSkips...); s.originErr != nil {
			return
		}
		env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
			"GIT_AUTHOR_NAME=doctest", "GIT_AUTHOR_EMAIL=doctest@nfd-fn.invalid",
			"GIT_COMMITTER_NAME=doctest", "GIT_COMMITTER_EMAIL=doctest@nfd-fn.invalid")
		for _, args := range [][]string{
			{"init", "--quiet", "--initial-branch=main"},
			{"add", "--all"},
			{"commit", "--quiet", "--message=the documented tree"},
			{"tag", version.Release},
		} {
			cmd := exec.Command("git", args...)
			cmd.Dir, cmd.Env = dir, env
			if out, err := cmd.CombinedOutput(); err != nil {
				s.originErr = fmt.Errorf("git %v: %v\n%s", args, err, out)
				return
			}
		}
	})
	if s.originErr != nil {
		t.Fatal(s.originErr)
	}
	return dir
}

// upstreamURL is the repository the docs fetch packages from.
const upstreamURL = "https://github.com/nfd-fn/nfd-fn"

// workspace is where the blocks of one page run, one after the other, as
// a reader runs them: a copy of the repository, HOME, TMPDIR and git's
// configuration.
type workspace struct {
	dir, repo, home, tmp, gitconfig string
}

func (s *sandbox) newWorkspace(t *testing.T) *workspace {
	t.Helper()
	dir := t.TempDir()
	w := &workspace{dir: dir, repo: filepath.Join(dir, "repo"), home: filepath.Join(dir, "home"),
		tmp: filepath.Join(dir, "tmp"), gitconfig: filepath.Join(dir, "gitconfig")}
	if err := copyRepo(s.root, w.repo); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{w.home, w.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(w.gitconfig, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// useOrigin points git at the local upstream for `kpt pkg get`.
func (w *workspace) useOrigin(t *testing.T, origin string) {
	t.Helper()
	config := fmt.Sprintf("[url \"file://%s\"]\n\tinsteadOf = %s\n", origin, upstreamURL)
	if err := os.WriteFile(w.gitconfig, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runBlock runs one shell block in the page's workspace.
func (s *sandbox) runBlock(t *testing.T, bash string, w *workspace, b block) {
	cmds, err := commands(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) == 0 {
		t.Fatalf("%s: the block shows no command", b.where())
	}
	extraPath := []string{s.stubDir, s.binDir}
	needsOrigin := false
	for _, c := range cmds {
		need, err := classify(c.words)
		if err != nil {
			t.Fatalf("%s:%d: %v", b.page, c.line, err)
		}
		if need != needNothing {
			p, ok := s.tools[need]
			if !ok {
				if os.Getenv(strictEnv) == "1" {
					t.Fatalf("%s needs %s, which is not installed, and %s=1 makes that a failure", b.where(), need, strictEnv)
				}
				t.Skipf("%s needs %s, which is not installed: skipping (set %s=1 to make this a failure; hack/install-e2e-tools.sh installs kustomize)", b.where(), need, strictEnv)
			}
			extraPath = append(extraPath, filepath.Dir(p))
		}
		if len(c.words) > 2 && c.words[0] == "kpt" && c.words[1] == "pkg" {
			needsOrigin = true
		}
	}
	if needsOrigin {
		w.useOrigin(t, s.origin(t))
	}
	errLine := filepath.Join(w.dir, "failed-line")
	os.Remove(errLine)
	// The prologue is one line, so that bash's line n+1 is the block's
	// line n.
	script := fmt.Sprintf("set -eo pipefail; trap 'echo $LINENO > %s' ERR\n", shellQuote(errLine)) + strings.Join(b.lines, "\n") + "\n"
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir = filepath.Join(w.repo, filepath.FromSlash(b.dir))
	cmd.Env = append(filteredEnv(), s.goEnv...)
	cmd.Env = append(cmd.Env,
		"PATH="+strings.Join(append(extraPath, os.Getenv("PATH")), string(os.PathListSeparator)),
		"GOBIN="+s.binDir, "HOME="+w.home, "TMPDIR="+w.tmp,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+w.gitconfig,
		"NFD_FN_DOCTEST_GO="+s.realGo,
		"NFD_FN_DOCTEST_NFDFN="+filepath.Join(s.binDir, "nfd-fn"),
		"NFD_FN_DOCTEST_EXPORT="+filepath.Join(s.root, "testdata", "cluster-export", "snapshot.yaml"),
		"NFD_FN_DOCTEST_STUBDIR="+s.stubDir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != b.exit {
		where := b.where()
		if n, err := os.ReadFile(errLine); err == nil {
			var line int
			fmt.Sscan(string(n), &line)
			where = fmt.Sprintf("%s:%d", b.page, b.line+line-1)
		}
		t.Errorf("%s: the block exits %d, want %d (a doctest exit=N comment sets it)\nstdout:\n%s\nstderr:\n%s", where, code, b.exit, tail(stdout.String()), tail(stderr.String()))
	}
}

// filteredEnv is this process's environment without what the block gets
// its own value for.
func filteredEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "GOBIN", "HOME", "TMPDIR", "NODE_NAME", "GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_GLOBAL",
			"GOCACHE", "GOMODCACHE", "GOPATH", "GOTOOLCHAIN", "GOFLAGS", "CGO_ENABLED", "KUBECONFIG", "XDG_CACHE_HOME", "XDG_CONFIG_HOME":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// tail keeps the end of a long output.
func tail(s string) string {
	const max = 4000
	if len(s) > max {
		return "...\n" + s[len(s)-max:]
	}
	return s
}
