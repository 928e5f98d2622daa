package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestHostileInputThroughTheBinary is issue 34 §4: hostile input run
// through the real binary, one subtest per attack, each named after the
// behaviour it checks.
func TestHostileInputThroughTheBinary(t *testing.T) {
	bin := buildListTestBinary(t)
	for _, c := range hostileBinaryCases {
		t.Run(c.name, func(t *testing.T) { c.run(t, bin) })
	}
}

// hostileBinaryCases are the subtests of TestHostileInputThroughTheBinary.
var hostileBinaryCases = []struct {
	name string
	run  func(t *testing.T, bin string)
}{
	{"file-argument-cut-short-while-read-gives-a-whole-output-not-a-crash", fileCutShortWhileRead(false)},
	{"stdin-file-cut-short-while-read-gives-a-whole-output-not-a-crash", fileCutShortWhileRead(true)},
	{"spooled-stdin-cut-short-while-read-is-an-error-naming-stdin", spooledStdinCutShort},
	{"stdin-file-reporting-size-zero-is-read-to-its-end", stdinSizeZeroIsRead},
	{"directory-entries-that-cannot-be-read-are-each-named", unreadableEntriesNamed},
	{"missing-or-full-tmpdir-falls-back-to-memory", tmpdirFallsBackToMemory},
	{"out-writes-through-a-symlink-and-keeps-the-mode", outThroughSymlinkKeepsMode},
	{"out-temporary-removed-on-sigterm-and-sigint", outTemporaryRemovedOnSignal},
	{"out-on-a-full-filesystem-names-the-write-error", outFullNamesTheWriteError},
	{"json-numbers-pass-through-byte-for-byte", jsonNumbersAsWritten},
	{"slow-template-runs-out-of-time-once-for-the-run", slowTemplateOncePerRun},
	{"stdin-a-terminal-is-one-plain-sentence", stdinTerminalMessage},
}

// fleetText is a fleet of n NodeFeatures and a rule labelling them, over
// 64 KiB from a few hundred nodes: mapped, not read.
func fleetText(n int) string {
	var b strings.Builder
	b.WriteString(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: avx
spec:
  rules:
  - name: avx
    labels:
      example.com/avx: "true"
    matchFeatures:
    - feature: cpu.cpuid
      matchExpressions:
        AVX: {op: Exists}
`)
	for i := range n {
		fmt.Fprintf(&b, `---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata:
  name: node-%05[1]d
  namespace: node-feature-discovery
  labels:
    nfd.node.kubernetes.io/node-name: node-%05[1]d
spec:
  features:
    flags:
      cpu.cpuid:
        elements:
          AVX: {}
          SSE4: {}
    attributes:
      kernel.version:
        elements:
          major: "6"
          minor: "%[1]d"
    instances:
      pci.device:
        elements:
        - attributes: {vendor: "8086", class: "0300", device: "%04[1]x"}
`, i)
	}
	return b.String()
}

// startReading starts cmd with its stdout a pipe and returns once it has
// written its first byte: by then it has read (mapped) its input and is
// writing the output from it. finish reads the rest and waits.
func startReading(t *testing.T, cmd *exec.Cmd) (finish func() (stdout, stderr string, code int)) {
	t.Helper()
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errOut := start(t, cmd)
	first := make([]byte, 1)
	if _, err := io.ReadFull(pipe, first); err != nil {
		cmd.Wait()
		t.Fatalf("no output: %v; stderr:\n%s", err, errOut.String())
	}
	return func() (string, string, int) {
		rest, _ := io.ReadAll(pipe)
		cmd.Wait()
		return string(first) + string(rest), errOut.String(), cmd.ProcessState.ExitCode()
	}
}

// start starts cmd, keeping what it writes on stderr.
func start(t *testing.T, cmd *exec.Cmd) *bytes.Buffer {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &stderr
}

// noCrash fails when stderr holds the runtime's crash report.
func noCrash(t *testing.T, stderr string) {
	t.Helper()
	for _, s := range []string{"unexpected fault address", "goroutine ", "fatal error", "panic:"} {
		if strings.Contains(stderr, s) {
			t.Fatalf("stderr holds %q, a crash:\n%.3000s", s, stderr)
		}
	}
}

// fileCutShortWhileRead truncates the input file (a file argument, or
// stdin redirected from it) while nfd-fn writes the output from its
// mapping. The mapped file is leased: the truncation waits until nfd-fn
// is done, and the output is whole, the same as an untouched run's.
func fileCutShortWhileRead(onStdin bool) func(t *testing.T, bin string) {
	return func(t *testing.T, bin string) {
		path := filepath.Join(t.TempDir(), "fleet.yaml")
		mustWrite(t, path, fleetText(600))
		command := func() *exec.Cmd {
			if !onStdin {
				return exec.Command(bin, "render", path)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			cmd := exec.Command(bin, "render", "-")
			cmd.Stdin = f
			return cmd
		}
		want := runCmd(t, command())
		finish := startReading(t, command())
		cut := make(chan error, 1)
		go func() { cut <- os.Truncate(path, 100) }()
		stdout, stderr, code := finish()
		if err := <-cut; err != nil {
			t.Fatal(err)
		}
		noCrash(t, stderr)
		if code != want.code || stdout != want.stdout {
			t.Fatalf("exit %d, %d bytes of output; untouched: exit %d, %d bytes; stderr:\n%.3000s", code, len(stdout), want.code, len(want.stdout), stderr)
		}
		if info, err := os.Stat(path); err != nil || info.Size() != 100 {
			t.Fatalf("the truncation did not go through after the run: %v, %v", info, err)
		}
	}
}

// spooledStdinCutShort truncates the unlinked copy a piped stdin is
// spooled to (through /proc, as only its owner can), which is mapped
// without a lease, while nfd-fn writes the output from it: the fault is
// an error naming stdin, not a crash.
func spooledStdinCutShort(t *testing.T, bin string) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc")
	}
	tmp := t.TempDir()
	cmd := exec.Command(bin, "render", "-")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.Stdin = strings.NewReader(fleetText(600)) // a pipe
	finish := startReading(t, cmd)
	spool := spooledMapping(t, cmd.Process.Pid, filepath.Join(tmp, "nfd-fn-input-"))
	if spool == "" {
		finish()
		t.Skip("the spooled copy's mapping cannot be opened here (/proc/PID/map_files needs CAP_SYS_ADMIN)")
	}
	if err := os.Truncate(spool, 0); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := finish()
	noCrash(t, stderr)
	if code != 1 || !strings.Contains(stderr, "nfd-fn: reading stdin: the file was truncated while nfd-fn read it") {
		t.Fatalf("exit %d, stderr:\n%.3000s", code, stderr)
	}
}

// spooledMapping is the /proc/PID/map_files link of the mapping of the
// file whose path starts with prefix, "" when there is none or it cannot
// be opened.
func spooledMapping(t *testing.T, pid int, prefix string) string {
	t.Helper()
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(maps), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 6 || !strings.HasPrefix(fields[5], prefix) {
			continue
		}
		p := fmt.Sprintf("/proc/%d/map_files/%s", pid, fields[0])
		if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			f.Close()
			return p
		}
	}
	return ""
}

// runCmd runs cmd to its end.
func runCmd(t *testing.T, cmd *exec.Cmd) binRun {
	t.Helper()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Run()
	return binRun{stdout: o.String(), stderr: e.String(), code: cmd.ProcessState.ExitCode()}
}

// stdinSizeZeroIsRead gives stdin a /proc file, which reports a size of 0
// but has content: it is read, not taken for an empty input.
func stdinSizeZeroIsRead(t *testing.T, bin string) {
	status, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("needs /proc")
	}
	status.Close()
	for _, args := range [][]string{{"render", "-"}, {"render"}} {
		f, err := os.Open("/proc/self/status")
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, args...)
		cmd.Stdin = f
		got := runCmd(t, cmd)
		f.Close()
		// The status file (the test's: self is who opens it) starts with
		// the process's name.
		switch {
		case args[len(args)-1] == "-" && !strings.Contains(got.stdout, "  - Name: "):
			t.Errorf("nfd-fn %s: the status file is not read as an item; exit %d, stdout:\n%.1000s\nstderr:\n%s", strings.Join(args, " "), got.code, got.stdout, got.stderr)
		case len(args) == 1 && !strings.Contains(got.stderr, "input has no apiVersion and kind"):
			t.Errorf("nfd-fn render: the status file is not read as the input; exit %d, stderr:\n%s", got.code, got.stderr)
		}
	}
}

// stdinTerminalMessage runs the KRM function with stdin a terminal: one
// line, its sentences apart, with no escaped line break in it.
func stdinTerminalMessage(t *testing.T, bin string) {
	tty := openPTY(t)
	cmd := exec.Command(bin, "render")
	cmd.Stdin = tty
	got := runCmd(t, cmd)
	want := "nfd-fn render: waiting for a ResourceList on stdin, but stdin is a terminal. Pipe one in (nfd-fn render < list.yaml), " +
		"or give files and directories (nfd-fn render FILE|DIR...); nfd-fn render --help says more.\n"
	if got.code != 2 || got.stderr != want {
		t.Fatalf("exit %d, stderr %q, want exit 2 and %q", got.code, got.stderr, want)
	}
}

// openPTY opens a new pseudo-terminal and returns its terminal end.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

// unreadableEntriesNamed gives validate and render a directory holding a
// rule file, a symlink to it, and a dangling symlink, a symlink loop and
// a FIFO named *.yaml: each of the three is named with what it is, and
// the run fails rather than reading the one file left.
func unreadableEntriesNamed(t *testing.T, bin string) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "rules.yaml"), "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: r\nspec:\n  rules: []\n")
	for link, target := range map[string]string{"dangling.yaml": "nowhere.yaml", "loop.yaml": "loop.yaml", "shared.yml": "rules.yaml"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	want := []string{
		"cannot read 3 files named as manifests",
		filepath.Join(dir, "dangling.yaml") + " (a dangling symlink: its target does not exist)",
		filepath.Join(dir, "loop.yaml") + " (a symlink loop)",
		filepath.Join(dir, "fifo.yaml") + " (a FIFO, not a regular file)",
	}
	for _, cmd := range []string{"validate", "render"} {
		got := runBinary(t, bin, nil, cmd, dir)
		if got.code == 0 || got.stdout != "" {
			t.Errorf("nfd-fn %s: exit %d, stdout:\n%.500s", cmd, got.code, got.stdout)
		}
		for _, w := range want {
			if !strings.Contains(got.stderr, w) {
				t.Errorf("nfd-fn %s: stderr does not say %q:\n%s", cmd, w, got.stderr)
			}
		}
	}
	// The symlink to a file is read as that file.
	for _, name := range []string{"dangling.yaml", "loop.yaml", "fifo.yaml"} {
		os.Remove(filepath.Join(dir, name))
	}
	if got := runBinary(t, bin, nil, "render", dir); !strings.Contains(got.stdout, "shared.yml") {
		t.Errorf("the symlink to a file is not read; stdout:\n%.1500s\nstderr:\n%s", got.stdout, got.stderr)
	}
}

// tmpdirFallsBackToMemory runs the outputs that spool through TMPDIR
// (piped stdin; the held outputs -o apply and labels-json) with TMPDIR
// missing, and with every file write past 32 KiB refused (ulimit -f: as
// a full TMPDIR refuses them): the same output as with a usable TMPDIR.
func tmpdirFallsBackToMemory(t *testing.T, bin string) {
	fleet := []byte(fleetText(600))
	for _, args := range [][]string{{"render", "-"}, {"render", "-o", "apply", "-"}, {"render", "-o", "labels-json", "-"}} {
		want := runBinary(t, bin, fleet, args...)
		if want.code != 0 || len(want.stdout) < 64<<10 {
			t.Fatalf("nfd-fn %s: exit %d, %d bytes; stderr:\n%s", strings.Join(args, " "), want.code, len(want.stdout), want.stderr)
		}
		missing := exec.Command(bin, args...)
		missing.Env = append(os.Environ(), "TMPDIR="+filepath.Join(t.TempDir(), "missing"))
		full := exec.Command("/bin/sh", append([]string{"-c", `ulimit -f 64 && exec "$0" "$@"`, bin}, args...)...)
		for name, cmd := range map[string]*exec.Cmd{"missing": missing, "full": full} {
			stdout, stderr, code := testkit.Exec(t, cmd, fleet)
			if code != 0 || stdout != want.stdout {
				t.Errorf("nfd-fn %s, TMPDIR %s: exit %d, %d bytes (want %d); stderr:\n%s", strings.Join(args, " "), name, code, len(stdout), len(want.stdout), stderr)
			}
		}
	}
}

// outThroughSymlinkKeepsMode renders with --out naming a symlink to a
// file of mode 0600: the file it leads to gets the output and keeps its
// mode, the symlink stays; a new --out file is 0644.
func outThroughSymlinkKeepsMode(t *testing.T, bin string) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.yaml")
	mustWrite(t, in, fleetText(2))
	want := runBinary(t, bin, nil, "render", in)
	real, link := filepath.Join(dir, "real.yaml"), filepath.Join(dir, "link.yaml")
	if err := os.WriteFile(real, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.yaml", link); err != nil {
		t.Fatal(err)
	}
	if got := runBinary(t, bin, nil, "render", "--out", link, in); got.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", got.code, got.stderr)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("--out replaced the symlink: %v, %v", info.Mode(), err)
	}
	info, err := os.Stat(real)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the file the symlink leads to is %v, want mode 0600 kept (%v)", info.Mode(), err)
	}
	if got := readFile(t, real); got != want.stdout {
		t.Errorf("the file the symlink leads to holds %d bytes, not the output (%d bytes)", len(got), len(want.stdout))
	}
	fresh := filepath.Join(dir, "new.yaml")
	runBinary(t, bin, nil, "render", "--out", fresh, in)
	if info, err := os.Stat(fresh); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("a new --out file is %v, want 0644 (%v)", info.Mode(), err)
	}
	leftovers(t, dir)
}

// leftovers fails when dir holds a temporary --out file.
func leftovers(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// outTemporaryRemovedOnSignal stops a render --out FILE while it waits
// for stdin, its temporary file made: the signal ends it, the temporary
// file is gone, FILE is as it was.
func outTemporaryRemovedOnSignal(t *testing.T, bin string) {
	for _, sig := range []os.Signal{unix.SIGTERM, os.Interrupt} {
		dir := t.TempDir()
		out := filepath.Join(dir, "nodes.yaml")
		mustWrite(t, out, "old\n")
		cmd := exec.Command(bin, "render", "--out", out, "-")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stderr := start(t, cmd)
		io.WriteString(stdin, fleetText(1)) // and no end of input
		waitForTemporary(t, dir)
		cmd.Process.Signal(sig)
		cmd.Wait()
		stdin.Close()
		status, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !status.Signaled() || status.Signal() != sig {
			t.Errorf("%v: the process ended with %v, not by the signal; stderr:\n%s", sig, cmd.ProcessState, stderr.String())
		}
		leftovers(t, dir)
		if got := readFile(t, out); got != "old\n" {
			t.Errorf("%v: FILE holds %q", sig, got)
		}
	}
}

// waitForTemporary returns once dir holds a temporary --out file.
func waitForTemporary(t *testing.T, dir string) {
	t.Helper()
	for range 60000 {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".nodes.yaml.") {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("no temporary --out file was made")
}

// outFullNamesTheWriteError renders with --out when the file system
// refuses the write (ulimit -f: as a full one does): the message names
// FILE and the write error, not errors of the run, and FILE is as it was.
func outFullNamesTheWriteError(t *testing.T, bin string) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.yaml"), filepath.Join(dir, "nodes.yaml")
	mustWrite(t, in, fleetText(600))
	mustWrite(t, out, "old\n")
	cmd := exec.Command("/bin/sh", "-c", `ulimit -f 64 && exec "$0" "$@"`, bin, "render", "--out", out, in)
	_, stderr, code := testkit.Exec(t, cmd, nil)
	if code != 1 || !strings.Contains(stderr, "--out "+out+" left as it was: writing it failed: file too large") || strings.Contains(stderr, "has errors") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	leftovers(t, dir)
	if got := readFile(t, out); got != "old\n" {
		t.Errorf("FILE holds %q", got)
	}
}

// jsonNumbersAsWritten renders a JSON ResourceList (on stdin, and as a
// file) whose unchanged ConfigMap and labelled Node hold numbers that
// encoding/json would round (1.2345678901234568e+29) or refuse (+Inf):
// every one comes back as written, in both items.
func jsonNumbersAsWritten(t *testing.T, bin string) {
	input := filepath.Join(hostileDir, "json-numbers-as-written.json")
	data := []byte(readFile(t, input))
	for name, got := range map[string]binRun{
		"stdin": runBinary(t, bin, data, "render"),
		"file":  runBinary(t, bin, nil, "render", input),
	} {
		if got.code != 0 {
			t.Fatalf("%s: exit %d, stderr:\n%s", name, got.code, got.stderr)
		}
		if !strings.Contains(got.stdout, `"example.com/avx": "true"`) {
			t.Errorf("%s: the Node is not labelled (so not written from its tree):\n%s", name, got.stdout)
		}
		for _, num := range []string{`"big": 123456789012345678901234567890`, `"huge": 1e99999999`, `"f": 1.50`} {
			if n := strings.Count(got.stdout, num); n != 2 {
				t.Errorf("%s: %s written %d times, want 2 (the ConfigMap's and the Node's):\n%s", name, num, n, got.stdout)
			}
		}
		for _, num := range []string{`"neg": -0`, `"e": 1E5`} {
			if !strings.Contains(got.stdout, num) {
				t.Errorf("%s: %s not written as it is", name, num)
			}
		}
	}
}

// slowTemplate is a labelsTemplate that hashes 10 GB within the step,
// value and allocation budgets: it runs out of time (MaxTemplateTime) on
// any machine.
const slowTemplate = `{{ $s := repeat 200000 "a" }}{{ range until 10000 }}{{ range until 5 }}{{ $x := sha256sum $s }}{{ end }}{{ end }}example.com/slow=true`

// slowTemplateOncePerRun renders three nodes with a rule whose template
// runs out of time: every node fails with the one time budget error,
// grouped, the template having run once (pkg/engine's
// TestSlowTemplateRunsOutOfTimeOnceNotOnEveryNode counts the runs).
func slowTemplateOncePerRun(t *testing.T, bin string) {
	fleet := strings.Replace(fleetText(3), "    labels:\n      example.com/avx: \"true\"\n", "    labelsTemplate: '"+slowTemplate+"'\n", 1)
	got := runBinary(t, bin, []byte(fleet), "render", "-o", "labels", "-")
	want := `3 nodes (node-00000, node-00001, node-00002): rule "avx" matched, then its labelsTemplate failed: template exceeded its time budget`
	if got.code != 1 || !strings.Contains(got.stderr, want) {
		t.Fatalf("exit %d, stderr:\n%s", got.code, got.stderr)
	}
}
