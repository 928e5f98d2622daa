package krm

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/growth"
)

// hostileCase is one row of testdata/hostile/cases.yaml.
type hostileCase struct {
	Name  string `yaml:"name"`
	Input string `yaml:"input"`
	// Exit is what nfd-fn exits with: 1 when Read fails (nothing is
	// written) or an item is broken, else 0.
	Exit int `yaml:"exit"`
	// Broken lists the positions of the items left out as unreadable.
	Broken []int `yaml:"broken"`
	// Items is how many items the output holds.
	Items int `yaml:"items"`
	// Keywords must all appear in the error: Read's, or the broken items'.
	Keywords []string `yaml:"keywords"`
}

// hostileOutcome is what Read and WriteThen did with an input.
type hostileOutcome struct {
	exit   int
	broken []int
	items  int
	errs   string
	out    []byte
}

func runHostile(data []byte) hostileOutcome {
	rl, err := Read(data, ReadOptions{})
	if err != nil {
		return hostileOutcome{exit: 1, errs: err.Error()}
	}
	var o hostileOutcome
	var msgs []string
	for _, it := range rl.Items {
		if it.ParseErr != nil {
			o.exit = 1
			o.broken = append(o.broken, it.Pos)
			msgs = append(msgs, fmt.Sprintf("items[%d] (line %d): %v", it.Pos, it.Line, it.ParseErr))
		}
	}
	o.errs = strings.Join(msgs, "\n")
	var out bytes.Buffer
	if err := writeList(rl, &out, []*sdk.Result{{Severity: sdk.Error, Message: o.errs}}); err != nil {
		o.errs += "\nwrite: " + err.Error()
	}
	o.out = out.Bytes()
	return o
}

// hostileAllocCap bounds what reading and writing one hostile input may
// allocate, counted (internal/growth), not timed: the largest case, 10,000
// levels of nesting, allocates about 6 MiB; the blow-ups of issue 17
// point 8 allocated gigabytes.
const hostileAllocCap = 64 << 20

// TestHostileInputGivesAClearErrorAndParsableOutput runs the table in
// testdata/hostile: every input is either refused with a clear error and
// no output, or written as a complete list that parses, with the
// unreadable items left out and reported by position and line.
func TestHostileInputGivesAClearErrorAndParsableOutput(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "hostile")
	var cases []hostileCase
	readYAMLFile(t, filepath.Join(dir, "cases.yaml"), &cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, c.Input))
			if err != nil {
				t.Fatal(err)
			}
			var got hostileOutcome
			work := growth.Measure(func() { got = runHostile(data) })
			if work.Bytes > hostileAllocCap {
				t.Errorf("allocated %d MiB, more than %d MiB: the input blows the work up", work.Bytes>>20, hostileAllocCap>>20)
			}
			if got.exit != c.Exit || fmt.Sprint(got.broken) != fmt.Sprint(c.Broken) {
				t.Errorf("exit %d, broken items %v; want exit %d, broken %v; errors:\n%s", got.exit, got.broken, c.Exit, c.Broken, got.errs)
			}
			for _, k := range c.Keywords {
				if !strings.Contains(got.errs, k) {
					t.Errorf("error does not say %q:\n%s", k, got.errs)
				}
			}
			if got.out == nil {
				return
			}
			if n, err := countOutputItems(got.out); err != nil {
				t.Errorf("output does not parse: %v\n%s", err, got.out)
			} else if n != c.Items {
				t.Errorf("output has %d items, want %d:\n%s", n, c.Items, got.out)
			}
		})
	}
}

// countOutputItems parses a written list as one YAML (or JSON) document
// and counts its items.
func countOutputItems(out []byte) (int, error) {
	dec := yaml.NewDecoder(bytes.NewReader(out))
	var doc struct {
		Items []yaml.Node `yaml:"items"`
	}
	if err := dec.Decode(&doc); err != nil {
		return 0, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return 0, fmt.Errorf("more than one document")
	}
	return len(doc.Items), nil
}

func readYAMLFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("reading %q: %v", path, err)
	}
}
