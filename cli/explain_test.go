package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
				path := filepath.Join(dir, "expected-"+string(rune('a'+i))+".txt")
				if *update {
					if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./cli -update to create it)", err)
				}
				if got := stdout.String(); got != string(want) {
					t.Errorf("explain %s:\n--- got\n%s--- want\n%s", line, got, want)
				}
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
