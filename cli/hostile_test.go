package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/growth"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// cliCase is one row of testdata/hostile/cli-cases.yaml or, with only
// Name, Input, Exit and Keywords, of cases.yaml.
type cliCase struct {
	Name     string   `yaml:"name"`
	Input    string   `yaml:"input"`
	Args     []string `yaml:"args"`
	Exit     int      `yaml:"exit"`
	Stdout   string   `yaml:"stdout"`
	Keywords []string `yaml:"keywords"`
	// Broken, in cases.yaml, says the list is written without the broken
	// items; Items how many it keeps.
	Broken []int `yaml:"broken"`
}

const hostileDir = "../testdata/hostile"

// hostileAllocCap bounds what one hostile input may allocate through the
// command, counted (internal/growth), not timed: the largest case, a 1 MB
// misspelt key, allocates about 45 MiB; the blow-ups of issue 17 point 8
// allocated gigabytes.
const hostileAllocCap = 128 << 20

// TestHostileInputThroughTheCommand runs every hostile input through
// cli.Main, as kpt, kustomize and pre-commit run nfd-fn: the exit code,
// the key words of the error, stdout a complete ResourceList (or empty,
// when the input cannot be read at all), stderr free of raw control
// characters, nothing written outside the package and no Node with an
// invalid name.
func TestHostileInputThroughTheCommand(t *testing.T) {
	var cases, krmCases []cliCase
	readYAML(t, filepath.Join(hostileDir, "cli-cases.yaml"), &cases)
	readYAML(t, filepath.Join(hostileDir, "cases.yaml"), &krmCases)
	for _, c := range krmCases {
		c.Name = "krm/" + c.Name
		c.Stdout = "list"
		if c.Exit == 1 && c.Broken == nil {
			c.Stdout = "empty" // the list itself is refused
		}
		cases = append(cases, c)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			input := filepath.Join(hostileDir, c.Input)
			args, stdin := hostileArgs(t, c, input)
			var stdout, stderr bytes.Buffer
			var code int
			work := growth.Measure(func() { code = Main(args, bytes.NewReader(stdin), &stdout, &stderr) })
			if work.Bytes > hostileAllocCap {
				t.Errorf("allocated %d MiB, more than %d MiB: the input blows the work up", work.Bytes>>20, hostileAllocCap>>20)
			}
			if code != c.Exit {
				t.Errorf("exit %d, want %d; stderr:\n%.2000s", code, c.Exit, stderr.String())
			}
			all := stdout.String() + stderr.String()
			for _, k := range c.Keywords {
				if !strings.Contains(all, k) {
					t.Errorf("output does not say %q; stderr:\n%.2000s", k, stderr.String())
				}
			}
			if hasTerminalControl(stderr.String()) {
				t.Errorf("stderr holds a raw control character: %q", stderr.String())
			}
			checkStdout(t, c.Stdout, stdout.Bytes(), input)
		})
	}
}

// hostileArgs is the command line of a case and what goes on stdin.
func hostileArgs(t *testing.T, c cliCase, input string) ([]string, []byte) {
	t.Helper()
	args := append([]string(nil), c.Args...)
	onStdin := true
	for i, a := range args {
		if a == "{input}" {
			args[i], onStdin = input, false
		}
	}
	if !onStdin {
		return args, nil
	}
	data, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	return args, data
}

// checkStdout checks stdout against what the case says it is.
func checkStdout(t *testing.T, want string, out []byte, input string) {
	t.Helper()
	switch want {
	case "empty":
		if len(out) != 0 {
			t.Errorf("stdout is not empty:\n%.2000s", out)
		}
	case "text":
		if hasTerminalControl(string(out)) {
			t.Errorf("stdout holds a raw control character: %q", out)
		}
	case "list":
		checkRenderedList(t, out, input)
		checkNodeNames(t, out)
		checkResultMessages(t, out)
	default:
		t.Fatalf("unknown stdout %q", want)
	}
}

// checkResultMessages fails when a result's message, object name or file
// holds a raw control character or bidi override: kpt prints them to the
// terminal as they are.
func checkResultMessages(t *testing.T, out []byte) {
	t.Helper()
	var list testkit.List
	if err := sigsyaml.Unmarshal(out, &list); err != nil {
		return // checkRenderedList reports it
	}
	for _, r := range list.Results {
		for _, s := range []string{r.Message, r.ResourceRef["name"], r.ResourceRef["namespace"], r.File.Path} {
			if hasTerminalControl(s) {
				t.Errorf("a result holds a raw control character: %q", s)
			}
		}
	}
}

// checkNodeNames fails when the list holds a Node nfd-fn wrote (one with
// its path annotation under nodes/) whose name is not a valid node name.
func checkNodeNames(t *testing.T, out []byte) {
	t.Helper()
	var list struct {
		Items []yaml.Node `yaml:"items"`
	}
	if err := yaml.Unmarshal(out, &list); err != nil {
		return // checkRenderedList reports it
	}
	for i := range list.Items {
		var it struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name        string            `yaml:"name"`
				Annotations map[string]string `yaml:"annotations"`
			} `yaml:"metadata"`
		}
		if list.Items[i].Decode(&it) != nil {
			continue
		}
		p := it.Metadata.Annotations[kioutil.PathAnnotation]
		if it.Kind == "Node" && strings.HasPrefix(p, "nodes/") {
			if why := objects.InvalidName("Node", it.Metadata.Name); why != "" || p != "nodes/"+it.Metadata.Name+".yaml" {
				t.Errorf("Node %q written to %q: %s", it.Metadata.Name, p, why)
			}
		}
	}
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
}

// TestHugeItemOutsideTheBlockLayoutIsAnErrorNotATree: a file holding one
// object of more than 64 MiB that the fast decoders do not read (a block
// scalar here; a kubectl export cut short is another) is an error at its
// first line, not a parse into a tree of ten times its size, and stdout
// is still a complete ResourceList.
func TestHugeItemOutsideTheBlockLayoutIsAnErrorNotATree(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "huge.yaml")
	body := strings.Repeat("    a line of a block scalar that the fast decoders leave to yaml.v3\n", (64<<20)/68+1)
	if err := os.WriteFile(file, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge\ndata:\n  x: |\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Main([]string{"render", file}, strings.NewReader(""), &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), file+":1:1: error:") || !strings.Contains(errOut.String(), "not in the plain block layout") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	var list struct {
		Kind  string      `yaml:"kind"`
		Items []yaml.Node `yaml:"items"`
	}
	if err := yaml.Unmarshal(out.Bytes(), &list); err != nil || list.Kind != "ResourceList" || len(list.Items) != 0 {
		t.Errorf("stdout is not a complete ResourceList without the object (%v, kind %q, %d items)", err, list.Kind, len(list.Items))
	}
}
