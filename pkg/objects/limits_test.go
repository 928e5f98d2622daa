package objects

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// TestFileLimitsHoldJustOverAndNotJustUnder reads a file at each limit of
// untrusted YAML and one step over it: at the limit its documents are
// read; over it, the file is an error naming the limit and the line, and
// the documents before are kept.
func TestFileLimitsHoldJustOverAndNotJustUnder(t *testing.T) {
	node := "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\n"
	nested := func(depth int) string {
		return "a: " + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + "\n"
	}
	aliasing := func(n int) string {
		return "a: &x [" + strings.TrimSuffix(strings.Repeat("s,", n-1), ",") + "]\nb: *x\n"
	}
	tests := []struct {
		name, data, err string
	}{
		{"depth-at-the-limit", node + nested(ys.MaxDepth), ""},
		{"depth-over-the-limit", node + nested(ys.MaxDepth+1), "fuzz.yaml:5:1: error: over a limit: nested deeper than 1000 levels"},
		{"aliases-at-the-limit", node + aliasing(ys.MaxAliasNodes), ""},
		{"aliases-over-the-limit", node + aliasing(ys.MaxAliasNodes+1), "fuzz.yaml:5:1: error: over a limit: its aliases expand to more than 100000 nodes"},
		{"one-key-once", node + "a: 1\nb: 1\n", ""},
		{"one-key-twice", node + "a: 1\nb: {c: 1, d: 2, c: 3}\n", `fuzz.yaml:6:17: error: key "c" is given twice, at lines 6 and 6`},
		{"same-text-different-tags-are-different-keys", node + "1: a\n\"1\": b\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Set{}
			ds := readText(s, []byte(tc.data), "fuzz.yaml", false)
			if len(s.Nodes) != 1 {
				t.Errorf("the document before was not kept: %d Nodes", len(s.Nodes))
			}
			switch {
			case tc.err == "" && len(ds) > 0:
				t.Errorf("diagnostics: %v", ds.Error())
			case tc.err != "" && (len(ds) != 1 || !strings.HasPrefix(ds[0].Text(), tc.err)):
				t.Errorf("diagnostics:\n%s\nwant one starting %q", ds.Error(), tc.err)
			}
		})
	}
}

// TestReadFileCapsTheSize checks MaxFileSize just under and just over,
// with sparse files.
func TestReadFileCapsTheSize(t *testing.T) {
	dir := t.TempDir()
	sparse := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if data, err := ReadFile(sparse("at.yaml", MaxFileSize)); err != nil || len(data) != MaxFileSize {
		t.Errorf("a file of MaxFileSize bytes: %d bytes, %v", len(data), err)
	}
	if _, err := ReadFile(sparse("over.yaml", MaxFileSize+1)); err == nil || !strings.Contains(err.Error(), "more than the 67108864 bytes") || !strings.Contains(err.Error(), "nfd-fn render < FILE") {
		t.Errorf("a file one byte over MaxFileSize: %v", err)
	}
}

// TestNameLengthCapIsTheAPIServers checks the 253-character cap of a Node
// name just under and just over.
func TestNameLengthCapIsTheAPIServers(t *testing.T) {
	if why := InvalidName("Node", strings.Repeat("a", 253)); why != "" {
		t.Errorf("253 characters: %s", why)
	}
	if why := InvalidName("Node", strings.Repeat("a", 254)); !strings.Contains(why, "no more than 253 characters") {
		t.Errorf("254 characters: %q", why)
	}
	if why := InvalidName("Namespace", strings.Repeat("a", 64)); !strings.Contains(why, "no more than 63 characters") {
		t.Errorf("a 64-character namespace: %q", why)
	}
}
