package krm

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"
)

// FuzzReadResourceList checks that Read and WriteThen never panic and that
// whenever Read succeeds the output is one document that parses, JSON
// when the input was JSON, holding every item that was not left out.
func FuzzReadResourceList(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rl, err := Read(data, ReadOptions{Limits: fuzzLimits})
		if err != nil {
			return
		}
		want := 0
		for _, it := range rl.Items {
			if it.ParseErr == nil {
				want++
			}
		}
		var out bytes.Buffer
		res := []*sdk.Result{{Severity: sdk.Error, Message: "fuzz: a\nmulti-line: message"}}
		if err := writeList(rl, &out, res); err != nil {
			return // an item with no JSON form, say
		}
		if rl.json && !json.Valid(out.Bytes()) {
			t.Fatalf("JSON input gave output that is not JSON:\n%s", out.Bytes())
		}
		got, err := countOutputItems(out.Bytes())
		if err != nil {
			t.Fatalf("output does not parse: %v\ninput:\n%q\noutput:\n%s", err, data, out.Bytes())
		}
		if got != want {
			t.Fatalf("output has %d items, want %d\ninput:\n%q\noutput:\n%s", got, want, data, out.Bytes())
		}
	})
}

// FuzzSplitter is a differential test of the fast splitter against
// yaml.v3: whenever the splitter accepts an input and every section and
// item it cut parses on its own (the case in which Read trusts it), the
// full parse must succeed and give the same top-level keys in the same
// order, the same items and the same values.
func FuzzSplitter(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		sp, ok := splitDocument(data, nil)
		if !ok {
			return
		}
		fast, ok := parseSplit(sp)
		if !ok {
			return // Read parses the whole input then
		}
		root, err := parseOneDocument(data)
		if err != nil {
			t.Fatalf("splitter accepted input yaml.v3 rejects (%v):\n%q", err, data)
		}
		full := map[string]*yaml.Node{}
		var keys []string
		for i := 0; i+1 < len(root.Content); i += 2 {
			keys = append(keys, root.Content[i].Value)
			full[root.Content[i].Value] = root.Content[i+1]
		}
		if got, want := strings.Join(fast.keys, ","), strings.Join(keys, ","); got != want {
			t.Fatalf("splitter read keys %s, yaml.v3 %s:\n%q", got, want, data)
		}
		for k, v := range fast.values {
			if !sameValue(v, full[k]) {
				t.Fatalf("splitter and yaml.v3 differ on %s:\n%q", k, data)
			}
		}
		items := full["items"]
		if items == nil || IsNull(items) {
			items = &yaml.Node{Kind: yaml.SequenceNode}
		}
		if len(items.Content) != len(fast.items) {
			t.Fatalf("splitter read %d items, yaml.v3 %d:\n%q", len(fast.items), len(items.Content), data)
		}
		for i, n := range fast.items {
			if !sameValue(n, items.Content[i]) {
				t.Fatalf("splitter and yaml.v3 differ on items[%d]:\n%q", i, data)
			}
		}
	})
}

// splitRead is what parsing a split's pieces on their own gives.
type splitRead struct {
	keys   []string
	values map[string]*yaml.Node
	items  []*yaml.Node
}

// parseSplit parses each section and item on its own, as Read does, and
// reports whether all of them parse (each section as exactly its key).
func parseSplit(sp split) (splitRead, bool) {
	r := splitRead{values: map[string]*yaml.Node{}}
	seen := map[string]bool{}
	for _, s := range sp.sections {
		if seen[s.key] {
			return r, false // Read parses the whole input
		}
		seen[s.key] = true
		r.keys = append(r.keys, s.key)
		if s.key == "items" {
			continue
		}
		var doc yaml.Node
		if yaml.Unmarshal(s.raw, &doc) != nil {
			return r, false
		}
		m := DocContent(&doc)
		if m == nil || m.Kind != yaml.MappingNode || len(m.Content) != 2 || m.Content[0].Value != s.key {
			return r, false
		}
		r.values[s.key] = m.Content[1]
	}
	for _, c := range sp.items {
		n, err := parseChunk(c.raw)
		if err != nil {
			return r, false
		}
		r.items = append(r.items, n)
	}
	return r, true
}

// sameValue compares two trees as YAML values: kinds, resolved tags and
// scalar values, ignoring style, position and comments.
func sameValue(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return (a == nil || IsNull(a)) && (b == nil || IsNull(b))
	}
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || len(a.Content) != len(b.Content) {
		return false
	}
	if a.Kind == yaml.ScalarNode || a.Kind == yaml.AliasNode {
		return a.Value == b.Value
	}
	for i := range a.Content {
		if !sameValue(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// fuzzLimits keep each fuzz run small.
var fuzzLimits = Limits{MaxDepth: 200, MaxAliasNodes: 10_000}

// addSeeds seeds a fuzz target with the examples, the hostile inputs and
// a few layouts the splitter must get right.
func addSeeds(f *testing.F) {
	for _, pattern := range []string{"../../examples/*/resourcelist.yaml", "../../examples/*/.expected/output.yaml", "../../testdata/hostile/*.yaml", "../../testdata/hostile/*.json"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	for _, s := range splitterSeeds {
		f.Add([]byte(s))
	}
}

var splitterSeeds = []string{
	"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- a: 1\n- b: |\n    x\n  c: 2\n",
	"kind: ResourceList\napiVersion: config.kubernetes.io/v1\nitems:\n  - a: 1\n  - - x\n    - y\nfunctionConfig: {a: 1}\n",
	"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nresults:\n- message: m\n",
	"---\n# c\napiVersion: config.kubernetes.io/v1\n\"kind\": ResourceList\n'items':\n-\n  a: 1\n",
	"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- a: \"x\n- y\"\n",
	"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- &a {x: 1}\n- *a\n",
	`{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{"a":1}]}`,
}
