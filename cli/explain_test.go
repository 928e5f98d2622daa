package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
)

// TestExplainGolden runs `nfd-fn explain` for the node and rule each case
// names in args.txt and compares the output with expected.txt.
func TestExplainGolden(t *testing.T) {
	cases, err := filepath.Glob("../testdata/explain/*")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range cases {
		args, err := os.ReadFile(filepath.Join(dir, "args.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSpace(string(args)), "\n") {
			name := filepath.Base(dir) + "/" + strings.ReplaceAll(strings.TrimSpace(line), " ", "_")
			t.Run(name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				argv := append([]string{"explain"}, strings.Fields(line)...)
				code := Main(append(argv, dir), strings.NewReader(""), &stdout, &stderr)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr.String())
				}
				golden.Check(t, filepath.Join(dir, "expected-"+string(rune('a'+i))+".txt"), stdout.Bytes())
			})
		}
	}
}

func TestExplainUnknownNodeNamesTheKnownOnes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"explain", "--node", "worker-9", "../testdata/explain/nic-node"}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "known nodes: worker-1") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}
