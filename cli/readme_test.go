package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// transcript is a shell session shown in the documentation: one command
// line ("$ go run . ARGS") and the output printed under it.
type transcript struct {
	where  string // file:line of the command
	args   []string
	output string
}

// TestDocumentedTranscriptsRunVerbatim runs every "$ go run . ..." session
// shown in README.md and docs/*.md from the repository root, and checks
// that nfd-fn prints exactly the output the page shows (stdout, then
// stderr, as a terminal shows them when the summary comes last). A page
// that drifts from the tool fails here rather than misleading a reader.
func TestDocumentedTranscriptsRunVerbatim(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	var all []transcript
	for _, p := range pages {
		ts, err := readTranscripts(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ts...)
	}
	if len(all) < 2 {
		t.Fatalf("found %d transcripts; the README shows validate and explain sessions", len(all))
	}
	t.Chdir(root)
	for _, tr := range all {
		t.Run(tr.where, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			Main(tr.args, strings.NewReader(""), &stdout, &stderr)
			if got := stdout.String() + stderr.String(); got != tr.output {
				t.Errorf("%s: nfd-fn %s prints\n%s\nthe page shows\n%s", tr.where, strings.Join(tr.args, " "), got, tr.output)
			}
		})
	}
}

// readTranscripts returns the fenced blocks of a Markdown page whose first
// line is "$ go run . ARGS". ARGS are split on spaces: the documented
// sessions use no quoting or redirection, and one that does is an error.
func readTranscripts(page string) ([]transcript, error) {
	data, err := os.ReadFile(page)
	if err != nil {
		return nil, err
	}
	rel := filepath.Base(filepath.Dir(page)) + "/" + filepath.Base(page)
	if filepath.Base(page) == "README.md" {
		rel = "README.md"
	}
	var out []transcript
	var cur *transcript
	inFence := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			if inFence && cur != nil {
				out = append(out, *cur)
			}
			inFence, cur = !inFence, nil
		case inFence && cur != nil:
			cur.output += line + "\n"
		case inFence && strings.HasPrefix(line, "$ go run . "):
			cmd := strings.TrimPrefix(line, "$ go run . ")
			if strings.ContainsAny(cmd, `"'<>|&;$`) {
				return nil, fmt.Errorf("%s:%d: a transcript uses shell quoting or redirection, which this test does not run", page, n)
			}
			cur = &transcript{where: rel + ":" + strconv.Itoa(n), args: strings.Fields(cmd)}
		}
	}
	return out, sc.Err()
}
