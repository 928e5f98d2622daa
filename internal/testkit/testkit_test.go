package testkit

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

const output = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: a
    labels: {zone: x}
results:
- message: rule r has no name
  severity: error
  resourceRef: {apiVersion: nfd.k8s-sigs.io/v1alpha1, kind: NodeFeatureRule, name: r}
  field: {path: "spec.rules[0].name"}
  file: {path: rules.yaml, index: 1}
  tags: {check: rule-name, checkID: NFD004}
- message: rendering as NFD v0.19.0
  severity: info
  tags: {check: release-assumed}
`

func TestReadGivesItemsAndResultsAsTheOutputHasThem(t *testing.T) {
	run := func(in []byte, out io.Writer) (int, error) {
		_, err := out.Write([]byte(output))
		return 1, err
	}
	out, code := Run(t, run, nil)
	l := Read(t, out)
	if code != 1 || len(l.Items) != 1 || len(l.Results) != 2 {
		t.Fatalf("exit %d, %d items, %d results", code, len(l.Items), len(l.Results))
	}
	if got := Labels(l.Item("Node", "a"))["zone"]; got != "x" {
		t.Errorf("Node a's zone label = %v", got)
	}
	if l.Item("Node", "b") != nil {
		t.Errorf("an item that is not there was found")
	}
	r := l.WithCheck("rule-name")
	if len(r) != 1 || r[0].File.Path != "rules.yaml" || r[0].File.Index != 1 || r[0].Field.Path != "spec.rules[0].name" || r[0].ResourceRef["name"] != "r" {
		t.Errorf("rule-name results = %+v", r)
	}
	if want := []string{"error: rule r has no name", "info: rendering as NFD v0.19.0"}; !reflect.DeepEqual(l.Texts(), want) {
		t.Errorf("Texts() = %q, want %q", l.Texts(), want)
	}
}

func TestCommandGivesStdoutStderrAndTheExitCode(t *testing.T) {
	main := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		in, _ := io.ReadAll(stdin)
		io.WriteString(stdout, args[0]+" "+string(in))
		io.WriteString(stderr, "note")
		return 2
	}
	out, errOut, code := Command(main, "input", "render")
	if out != "render input" || errOut != "note" || code != 2 {
		t.Errorf("Command = %q, %q, %d", out, errOut, code)
	}
}

func TestExecGivesStdoutStderrAndTheExitCode(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	out, errOut, code := Exec(t, exec.Command(sh, "-c", `read x; echo "got $x"; echo note >&2; exit 3`), []byte("input\n"))
	if out != "got input\n" || errOut != "note\n" || code != 3 {
		t.Errorf("Exec = %q, %q, %d", out, errOut, code)
	}
}

func TestNoHangReturnsWhenTheCallDoes(t *testing.T) {
	ran := false
	NoHang(t, "a quick call", func() { ran = true })
	if !ran {
		t.Error("NoHang returned before running the call")
	}
}

func TestMain(m *testing.M) { Main(m) }

func TestSharedFillsOnceForEveryCaller(t *testing.T) {
	calls := 0
	fill := func(dir string) error {
		calls++
		return os.WriteFile(filepath.Join(dir, "made"), []byte("x"), 0o644)
	}
	first := Shared(t, "test entry", fill)
	var second string
	t.Run("another-test", func(t *testing.T) { second = Shared(t, "test entry", fill) })
	if calls != 1 || first != second {
		t.Errorf("fill ran %d times; directories %q and %q", calls, first, second)
	}
	if _, err := os.Stat(filepath.Join(first, "made")); err != nil {
		t.Error(err)
	}
}
