package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestOneCLIMannerForUnreadablePaths is issue 34's fourth output point
// (paths): a path argument that cannot be read exits 2 in every command
// and output, naming the path, with nothing on stdout.
func TestOneCLIMannerForUnreadablePaths(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	for _, args := range [][]string{
		{"render", "rulez/"},
		{"render", "-o", "apply", "snapshot.yaml", "rulez/"},
		{"render", "-o", "apply-status", "snapshot.yaml", "rulez/"},
		{"render", "-o", "labels", "snapshot.yaml", "rulez/"},
		{"render", "-o", "labels-json", "snapshot.yaml", "rulez/"},
		{"render", "-o", "nova", "snapshot.yaml", "rulez/"},
		{"render", "--config", "rulez/", "snapshot.yaml"},
		{"validate", "rulez/"},
		{"validate", "--output", "json", "rulez/"},
		{"explain", "--node", "gpu-1", "snapshot.yaml", "rulez/"},
		{"plan", "snapshot.yaml", "rulez/"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, code := run(t, planFixture, commandEnv(nil), nil, bin, args...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, "rulez") {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and the path named", code, stdout, stderr)
			}
		})
	}
}

// TestOneCLIMannerSuggestsMistypedCommandsAndFlags: a mistyped command or
// flag is a usage error (exit 2) with a did-you-mean.
func TestOneCLIMannerSuggestsMistypedCommandsAndFlags(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rendr", "snapshot.yaml"}, `unknown command "rendr"; did you mean render?`},
		{[]string{"valdiate", "rules"}, "did you mean validate?"},
		{[]string{"render", "--ouput", "apply", "snapshot.yaml"}, "-ouput; did you mean --output?"},
		{[]string{"plan", "--bsae", "base", "snapshot.yaml", "rules"}, "did you mean --base?"},
		{[]string{"discover", "--hots-root", "/"}, "did you mean --host-root?"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, stderr, code := run(t, planFixture, commandEnv(nil), nil, bin, c.args...)
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, c.want)
			}
		})
	}
}

// TestOneCLIMannerRendersNovaFromFiles: `render -o nova FILE...` takes
// files, directories and --config like every other output, and writes
// the provider config a ResourceList of the same objects gives.
func TestOneCLIMannerRendersNovaFromFiles(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	pkg := "../examples/openstack-nova"
	fromFiles, stderr, code := run(t, pkg, commandEnv(nil), nil, bin, "render", "-o", "nova", "--config", "nfd-fn-config.yaml", "nodefeatures", "rules")
	if code != 0 || !strings.Contains(fromFiles, "CUSTOM_NVIDIA_COM_GPU") {
		t.Fatalf("-o nova FILE...: exit %d\n%s\n%s", code, fromFiles, stderr)
	}
	list := resourceList(t, filepath.Join(pkg, "nfd-fn-config.yaml"), filepath.Join(pkg, "nodefeatures"), filepath.Join(pkg, "rules"))
	fromStdin, stderr, code := run(t, ".", commandEnv(nil), list, bin, "render", "-o", "nova")
	if code != 0 || fromStdin != fromFiles {
		t.Errorf("-o nova on stdin (exit %d) differs from over the files:\n%s\n---\n%s\n%s", code, fromStdin, fromFiles, stderr)
	}
}

// resourceList makes a ResourceList of the objects in dirs, with the
// object in config as its functionConfig.
func resourceList(t *testing.T, config string, dirs ...string) []byte {
	t.Helper()
	read := func(file string) []any {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var docs []any
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		for {
			var doc map[string]any
			if dec.Decode(&doc) != nil {
				return docs
			}
			docs = append(docs, doc)
		}
	}
	var items []any
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			items = append(items, read(filepath.Join(dir, e.Name()))...)
		}
	}
	b, err := yaml.Marshal(map[string]any{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "functionConfig": read(config)[0], "items": items})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOneCLIMannerGivesValidateJSONLinesAndColumns: each result of
// `validate --output json` carries the line and column the text output
// shows for it.
func TestOneCLIMannerGivesValidateJSONLinesAndColumns(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	dir := brokenSnapshot(t, true) // an unquoted class: 0300
	text, _, _ := run(t, dir, commandEnv(nil), nil, bin, "validate", "snapshot.yaml", "rules")
	out, stderr, code := run(t, dir, commandEnv(nil), nil, bin, "validate", "--output", "json", "snapshot.yaml", "rules")
	var results []struct {
		Message string
		File    struct {
			Path         string
			Line, Column int
		}
	}
	if err := json.Unmarshal([]byte(out), &results); err != nil || code != 1 || len(results) == 0 {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, stderr)
	}
	places := regexp.MustCompile(`(?m)^([^\s:]+):(\d+):(\d+): `).FindAllStringSubmatch(text, -1)
	for _, r := range results {
		if r.File.Path == "" {
			continue
		}
		if r.File.Line == 0 || r.File.Column == 0 {
			t.Errorf("result at %s has no line and column: %q", r.File.Path, r.Message)
			continue
		}
		found := false
		for _, p := range places {
			found = found || (p[1] == r.File.Path && p[2] == strconv.Itoa(r.File.Line) && p[3] == strconv.Itoa(r.File.Column))
		}
		if !found {
			t.Errorf("result at %s:%d:%d is at no place of the text output:\n%s", r.File.Path, r.File.Line, r.File.Column, text)
		}
	}
}

// TestOneCLIMannerKeepsCRLF: a ResourceList with CRLF line ends, on stdin
// or as a file, and files that all use CRLF, give an output whose every
// line ends with CRLF, new Nodes and results included.
func TestOneCLIMannerKeepsCRLF(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	b, err := os.ReadFile("../examples/render-quickstart/resourcelist.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crlf := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n") }
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "list.yaml"), []byte(crlf(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, files := filepath.Join(dir, "rules"), brokenSnapshot(t, false)
	copyPath(t, filepath.Join(files, "rules"), rules)
	for _, name := range []string{"snapshot.yaml", "rules/cpu.yaml", "rules/gpu.yaml"} {
		src := filepath.Join(files, name)
		text, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(crlf(string(text))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name  string
		stdin []byte
		args  []string
	}{
		{"stdin", []byte(crlf(string(b))), nil},
		{"list-file", nil, []string{"render", "list.yaml"}},
		{"files", nil, []string{"render", "snapshot.yaml", "rules"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := run(t, dir, commandEnv(nil), c.stdin, bin, c.args...)
			if code != 0 || !strings.Contains(out, "kind: Node\r\n") {
				t.Fatalf("exit %d, no Node in the output\n%s", code, stderr)
			}
			for i, line := range strings.SplitAfter(out, "\n") {
				if line != "" && !strings.HasSuffix(line, "\r\n") {
					t.Fatalf("line %d does not end with CRLF: %q", i+1, line)
				}
			}
		})
	}
}
