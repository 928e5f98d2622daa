package krm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"
)

// kubectlJSONList is a List as kubectl get -o json prints it: four
// spaces of indentation, the header after the items.
const kubectlJSONList = `{
    "apiVersion": "v1",
    "items": [
        {
            "apiVersion": "nfd.k8s-sigs.io/v1alpha1",
            "kind": "NodeFeature",
            "metadata": {
                "labels": {
                    "nfd.node.kubernetes.io/node-name": "worker-1"
                },
                "name": "worker-1",
                "namespace": "node-feature-discovery",
                "resourceVersion": "48213377"
            },
            "spec": {
                "features": {
                    "flags": {
                        "cpu.cpuid": {
                            "elements": {
                                "AVX": {},
                                "AVX2": {}
                            }
                        }
                    },
                    "instances": {
                        "pci.device": {
                            "elements": [
                                {
                                    "attributes": {
                                        "class": "0300",
                                        "vendor": "10de"
                                    }
                                }
                            ]
                        }
                    }
                },
                "labels": {}
            }
        },
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "annotations": {
                    "node.alpha.kubernetes.io/ttl": "0"
                },
                "name": "worker-1"
            },
            "status": {
                "capacity": {
                    "cpu": "64",
                    "pods": "110"
                },
                "nodeInfo": {
                    "bootID": "b"
                }
            }
        }
    ],
    "kind": "List",
    "metadata": {
        "resourceVersion": ""
    }
}
`

// jsonListCases are JSON lists whose streamed output must equal the
// whole writer's: each holds text that is or is not written back as it
// is (canonicalJSON).
var jsonListCases = map[string]string{
	"kubectl-export": kubectlJSONList,
	"compact":        `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{"a":1},{"b":[1,2,{}],"c":[]}]}`,
	"resource-list-with-results": `{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList",
  "functionConfig": {"apiVersion": "v1", "kind": "ConfigMap", "data": {"x": "y"}},
  "items": [{"kind": "ConfigMap"}],
  "results": [{"message": "earlier", "severity": "info"}]}`,
	"results-before-items": `{"results": [{"message": "earlier"}], "items": [{"kind": "A"}], "apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList"}`,
	"no-items":             `{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "functionConfig": null}`,
	"empty-items":          `{"apiVersion": "v1", "kind": "List", "items": []}`,
	"numbers": `{"apiVersion": "v1", "kind": "List", "items": [
    {"i": 10, "n": -3, "z": 0, "f": 1.5, "g": 1.0, "e": 1e3, "nz": -0, "big": 123456789012345678901, "lead": 0.25}]}`,
	"escapes": `{"apiVersion": "v1", "kind": "List", "items": [
    {"q": "a\"b", "s": "a\\b", "n": "a\nb", "t": "a\tb", "b": "\b\f\r", "u": "\u00e9", "U": "\u00E9", "ctl": "\u0001", "ls": "\u2028", "html": "<&>"}]}`,
	"utf8":           "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [{\"a\": \"caf\u00e9 \u2603\"}]}",
	"literals":       `{"apiVersion": "v1", "kind": "List", "items": [{"t": true, "f": false, "n": null, "s": "true", "e": ""}]}`,
	"scalar-item":    `{"apiVersion": "v1", "kind": "List", "items": ["text", 1, null, [1]]}`,
	"item-on-a-line": "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n  {\"a\": 1}, {\"b\": 2},\n\t{\"c\": 3}\n]}",
	"crlf":           "{\r\n  \"apiVersion\": \"v1\",\r\n  \"kind\": \"List\",\r\n  \"items\": [\r\n    {\"a\": \"b\"}\r\n  ]\r\n}\r\n",
	"unknown-keys":   `{"apiVersion": "v1", "kind": "List", "metadata": {"continue": "x"}, "extra": [1, {"a": "b"}], "items": [{"k": "v"}]}`,
}

func TestJSONListStreamsAsTheWholeWriterWrites(t *testing.T) {
	for name, in := range jsonListCases {
		t.Run(name, func(t *testing.T) {
			rl, err := Read([]byte(in), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !rl.fast || !rl.json {
				t.Fatalf("read fast %v, JSON %v; want both", rl.fast, rl.json)
			}
			for _, it := range rl.Items {
				if it.ParseErr != nil {
					t.Fatalf("items[%d]: %v", it.Pos, it.ParseErr)
				}
			}
			checkJSONStreamIsWhole(t, []byte(in), rl, Limits{}.withDefaults())
		})
	}
}

// TestJSONListItemThatDoesNotParseIsReported: an item that is not JSON
// (an escape neither JSON nor YAML has) is left out, reported, and the
// others are kept, as an item of a block list that does not parse.
func TestJSONListItemThatDoesNotParseIsReported(t *testing.T) {
	in := "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n{\"a\": \"b\"},\n{\"bad\": \"a\\qb\"}\n]}"
	rl, err := Read([]byte(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !rl.json || len(rl.Items) != 2 || rl.Items[0].ParseErr != nil || rl.Items[1].ParseErr == nil {
		t.Fatalf("JSON %v, items %d; want the second item reported", rl.json, len(rl.Items))
	}
	if rl.Items[1].Line != 3 {
		t.Errorf("the reported item is on line %d, want 3", rl.Items[1].Line)
	}
}

// TestJSONListItemWithEscapesYAMLLacksIsRead: the escapes JSON has and
// yaml.v3 refuses (\/ and surrogate pairs, which Python's json.dumps
// writes) read as the API server reads them.
func TestJSONListItemWithEscapesYAMLLacksIsRead(t *testing.T) {
	in := "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n{\"a\": \"b\"},\n{\"slash\": \"a\\/b\", \"smile\": \"\\ud83d\\ude00\"}\n]}"
	rl, err := Read([]byte(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rl.Items) != 2 || rl.Items[1].ParseErr != nil {
		t.Fatalf("items %d; want both read", len(rl.Items))
	}
	n := rl.Items[1].Tree()
	if got := ScalarAt(n, "slash") + " " + ScalarAt(n, "smile"); got != "a/b \U0001F600" {
		t.Errorf("read as %q", got)
	}
}

// TestJSONWithALineBreakYAMLSeesIsReadWhole: a raw LS in a string is a
// line break to YAML: the cut list's lines would be wrong, so the input
// is parsed whole, and still written as JSON.
func TestJSONWithALineBreakYAMLSeesIsReadWhole(t *testing.T) {
	in := "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [{\"ls\": \"a\u2028b\"}]}"
	rl, err := Read([]byte(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rl.fast || !rl.json {
		t.Errorf("read fast %v, as JSON %v; want parsed whole, as JSON", rl.fast, rl.json)
	}
}

// checkJSONStreamIsWhole fails when the streamed output of rl, a JSON
// list splitJSON cut, differs from the output of the same input parsed
// and written whole, with results added and one item changed.
func checkJSONStreamIsWhole(t *testing.T, data []byte, rl *ResourceList, limits Limits) {
	t.Helper()
	whole, err := readWhole(data, ReadOptions{Limits: limits})
	if err != nil {
		t.Fatalf("the cut list reads, the whole input does not: %v\n%q", err, data)
	}
	if !whole.json {
		t.Fatalf("the cut list is JSON, the whole input is not:\n%q", data)
	}
	resultsLast(whole.root)
	if len(whole.Items) != len(rl.Items) {
		t.Fatalf("%d items cut, %d parsed whole:\n%q", len(rl.Items), len(whole.Items), data)
	}
	for _, l := range []*ResourceList{rl, whole} {
		if len(l.Items) > 0 && l.Items[0].Tree() != nil {
			l.Items[0].Changed = true
		}
		l.Append(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{StrNode("kind"), StrNode("New")}})
	}
	res := []*sdk.Result{{Severity: sdk.Info, Message: "a <new> \"result\"\n"}}
	var streamed, want bytes.Buffer
	if err := writeList(rl, &streamed, res); err != nil {
		t.Fatalf("streamed write: %v", err)
	}
	if err := writeList(whole, &want, res); err != nil {
		t.Fatalf("whole write: %v", err)
	}
	if streamed.String() != want.String() {
		t.Fatalf("streamed output differs from the whole writer's\ninput:\n%q\nstreamed:\n%s\nwhole:\n%s", data, streamed.String(), want.String())
	}
}

// resultsLast moves a results key that comes before the items key to
// the end, where the streamed writer puts it: the results are known only
// once the items are written.
func resultsLast(root *yaml.Node) {
	keys := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		keys[root.Content[i].Value] = i
	}
	r, hasResults := keys["results"]
	i, hasItems := keys["items"]
	if hasResults && !hasItems {
		// Items are written where the header ends, before the results.
		root.Content = append(root.Content, StrNode("items"), &yaml.Node{Kind: yaml.SequenceNode})
		hasItems, i = true, len(root.Content)-2
	}
	if hasResults && r < i {
		k, v := root.Content[r], root.Content[r+1]
		root.Content = append(append(root.Content[:r:r], root.Content[r+2:]...), k, v)
	}
}

func TestSplitJSONCutsEveryElementAtItsLine(t *testing.T) {
	sp, ok := splitJSON([]byte(kubectlJSONList), nil, nil)
	if !ok {
		t.Fatal("a kubectl JSON list is not cut")
	}
	var keys []string
	for _, s := range sp.sections {
		keys = append(keys, fmt.Sprintf("%s@%d", s.key, s.line))
	}
	if got, want := strings.Join(keys, " "), "apiVersion@2 items@3 kind@61 metadata@62"; got != want {
		t.Errorf("sections %s, want %s", got, want)
	}
	if len(sp.items) != 2 || sp.items[0].line != 4 || sp.items[1].line != 41 {
		t.Fatalf("items %+v", sp.items)
	}
	for _, c := range sp.items {
		if !c.json || !bytes.HasPrefix(c.raw, []byte("        {")) || !bytes.HasSuffix(c.raw, []byte("}")) {
			t.Errorf("item at line %d is not its line's text to its closing brace: %q", c.line, c.raw)
		}
	}
}

// TestJSONItemTreesHaveTheWholeInputsColumns: an item parsed on its own
// has the columns, and the lines counted from its first line, of the
// same item in the whole input's tree.
func TestJSONItemTreesHaveTheWholeInputsColumns(t *testing.T) {
	rl, err := Read([]byte(kubectlJSONList), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	root, err := parseOneDocument([]byte(kubectlJSONList))
	if err != nil {
		t.Fatal(err)
	}
	items := ValueAt(root, "items")
	for i, it := range rl.Items {
		got, want := positions(it.Tree(), 0), positions(items.Content[i], it.Line-1)
		if got != want {
			t.Errorf("items[%d]: positions\n%s\nwant\n%s", i, got, want)
		}
	}
}

// positions lists the line and column of every node under n, its lines
// less by.
func positions(n *yaml.Node, by int) string {
	var b strings.Builder
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		fmt.Fprintf(&b, "%d:%d ", n.Line-by, n.Column)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func TestJSONListWithABrokenItemIsReadWhole(t *testing.T) {
	// Not JSON, but YAML: read whole, as YAML, as before.
	in := `{"apiVersion": "v1", "kind": "List", "items": [{"a": b}]}`
	rl, err := Read([]byte(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rl.fast || rl.json {
		t.Errorf("a list with an item that is not JSON was read fast %v, as JSON %v", rl.fast, rl.json)
	}
	// Not YAML either: the item is reported by its line.
	in = "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n{\"a\": 1},\n{\"a\": [}\n]}"
	rl, err = Read([]byte(in), ReadOptions{})
	if err == nil && (len(rl.Items) != 2 || rl.Items[1].ParseErr == nil) {
		t.Fatalf("a broken JSON item is not reported")
	}
	if err == nil && !strings.Contains(rl.Items[1].ParseErr.Error(), "line 3") {
		t.Errorf("the broken item's error does not give its line: %v", rl.Items[1].ParseErr)
	}
}

// FuzzJSONList is a differential test of the streamed JSON path: when
// Read cuts a JSON list (splitJSON) and writes it item by item, the
// output must be the whole writer's, byte for byte.
func FuzzJSONList(f *testing.F) {
	for _, in := range jsonListCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rl, err := Read(data, ReadOptions{Limits: fuzzLimits})
		if err != nil || !rl.fast || !rl.json {
			return
		}
		for _, it := range rl.Items {
			if it.ParseErr != nil {
				return // left out of both outputs, told differently
			}
		}
		checkJSONStreamIsWhole(t, data, rl, fuzzLimits.withDefaults())
	})
}

// TestAppendIndentedIsJSONIndent: the one-pass indentation of canonical
// text is json.Indent's, and text that is not canonical is refused.
func TestAppendIndentedIsJSONIndent(t *testing.T) {
	for name, in := range jsonListCases {
		checkIndented(t, name, []byte(in))
	}
	checkIndented(t, "nested-empties", []byte(` { "a" : [ [ ] , { } , [ 1 , { "b" : [ ] } ] ] , "c" : { "d" : { } } } `))
}

func checkIndented(t *testing.T, name string, in []byte) {
	t.Helper()
	got, ok := appendIndented(nil, bytes.TrimSpace(in), jsonItemPrefix)
	if ok != canonicalJSON(in) {
		t.Errorf("%s: appendIndented says canonical %v, canonicalJSON %v", name, ok, !ok)
	}
	if !ok {
		return
	}
	var want bytes.Buffer
	if err := json.Indent(&want, bytes.TrimSpace(in), jsonItemPrefix, "  "); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if string(got) != want.String() {
		t.Errorf("%s: indented\n%s\nwant\n%s", name, got, want.String())
	}
}

// jsonEntryCases are JSON objects of a file, and whether jsonEntry writes
// them as their own text (else the tree does).
var jsonEntryCases = []struct {
	name, raw string
	own       bool
}{
	{"kubectl-item", "        {\n            \"apiVersion\": \"v1\",\n            \"kind\": \"ConfigMap\",\n            \"metadata\": {\n                \"annotations\": {\n                    \"a\": \"b\"\n                },\n                \"name\": \"c\"\n            }\n        }", true},
	{"no-annotations", `{"kind": "ConfigMap", "metadata": {"name": "c", "labels": {"x": "y"}}, "data": {"k": "v"}}`, true},
	{"empty-annotations", `{"kind": "ConfigMap", "metadata": {"annotations": {}}}`, true},
	{"empty-metadata", `{"kind": "ConfigMap", "metadata": { }}`, true},
	{"no-metadata", `{"kind": "ConfigMap", "data": {"a": [1, {}, []]}}`, true},
	{"empty-object", `{}`, true},
	{"nested-metadata-keys", `{"spec": {"metadata": {"annotations": {}}}, "metadata": {"name": "n"}}`, true},
	{"place-annotation-already", `{"metadata": {"annotations": {"config.kubernetes.io/path": "x.yaml"}}}`, false},
	{"metadata-null", `{"metadata": null}`, false},
	{"annotations-list", `{"metadata": {"annotations": []}}`, false},
	// Refused before it is written; the text and the tree edit the first.
	{"metadata-twice", `{"metadata": {}, "metadata": {"name": "n"}}`, true},
	{"escaped-key", `{"meta\u0064ata": {"name": "n"}}`, false},
	{"numbers-as-written", `{"metadata": {"name": "n"}, "x": 1.50, "y": -0, "z": 123456789012345678901234567890, "e": 1e99999999}`, true},
	{"slash-escape", `{"metadata": {"name": "n"}, "x": "a\/b"}`, false},
}

func TestJSONFileEntryReadsAsItsTree(t *testing.T) {
	for _, c := range jsonEntryCases {
		for _, indent := range []int{0, 2} {
			t.Run(fmt.Sprintf("%s/indent-%d", c.name, indent), func(t *testing.T) {
				if own := checkJSONEntry(t, []byte(c.raw), indent); own != c.own {
					t.Errorf("written as its own text: %v, want %v", own, c.own)
				}
			})
		}
	}
}

// checkJSONEntry fails when jsonEntry writes raw, an object of a JSON
// file, as text that YAML reads otherwise than the tree path's output:
// the object parsed and annotated with its place. It reports whether
// jsonEntry wrote it.
func checkJSONEntry(t *testing.T, raw []byte, indent int) bool {
	t.Helper()
	it := &Item{Raw: raw, Line: 1, File: "dir/a \"b\".json", Index: 3, fromFile: true, json: true}
	rl := &ResourceList{sp: split{indent: indent}}
	text, ok := rl.jsonEntry(it)
	if !ok {
		return false
	}
	tree, err := it.ParseTree()
	if err != nil {
		t.Fatalf("jsonEntry wrote an object that does not parse: %v\n%q", err, raw)
	}
	annotatePlace(tree, it.File, it.Index)
	var doc yaml.Node
	list := append([]byte("items:\n"), text...)
	if err := yaml.Unmarshal(list, &doc); err != nil {
		t.Fatalf("the entry does not parse: %v\n%s", err, list)
	}
	items := ValueAt(DocContent(&doc), "items")
	if items == nil || len(items.Content) != 1 || !sameValue(items.Content[0], tree) {
		t.Fatalf("the entry reads otherwise than the annotated tree\ninput:\n%q\nentry:\n%s", raw, text)
	}
	return true
}

// FuzzJSONFileEntry is the differential test of jsonEntry against the
// tree path on any JSON object.
func FuzzJSONFileEntry(f *testing.F) {
	for _, c := range jsonEntryCases {
		f.Add([]byte(c.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !looksLikeJSON(raw) || !json.Valid(raw) {
			return // splitJSON and parse give jsonEntry only valid objects
		}
		var doc yaml.Node
		if yaml.Unmarshal(raw, &doc) != nil || DocContent(&doc) == nil || DocContent(&doc).Kind != yaml.MappingNode {
			return // not YAML, or not an object: the item is reported
		}
		checkJSONEntry(t, raw, 2)
	})
}

// TestJSONTextIsIndentedMarshal holds jsonText (a jsontext encoder) to
// what a tree's JSON was before it: encoding/json's Marshal of the value
// YAML decodes, HTML escaping off, indented by json.Indent with the same
// prefix, for every scalar but a number in JSON's own form
// (TestJSONNumbersAreWrittenAsTheyAre). Keys are in order in each document, as encoding/json sorts them.
func TestJSONTextIsIndentedMarshal(t *testing.T) {
	docs := []string{
		`{a: 1, b: -2, c: 1.5, d: +1e3, e: 0x10, f: 1_000, g: true, h: null, i: "", j: "<&> \"q\" \\"}`,
		"{a: \"\\u2028\\u2029 \\x01\\x1f\\x7f\\b\\f\\n\\r\\t\", b: \"caf\u00e9 \u2603 \U0001F600\", \"k\u00e9y\": v}",
		`{a: {}, b: [], c: [{}, [], [1, [2, {x: y}]]], d: {e: {f: [null, ~, false]}}}`,
		`[1, "two", {three: 3}, []]`,
		`scalar`,
		`{}`,
	}
	for _, doc := range docs {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		var v any
		if err := n.Decode(&v); err != nil {
			t.Fatal(err)
		}
		checkJSONText(t, &n, v)
	}
	// Text that is not UTF-8 (no tree parsed from input holds it, but a
	// made node may): each bad byte becomes \ufffd, as encoding/json writes it.
	bad := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{StrNode("k\xff"), StrNode("v\xfe\u2028")}}
	checkJSONText(t, bad, map[string]string{"k\xff": "v\xfe\u2028"})
}

// checkJSONText fails when jsonText of n differs from v marshalled and
// indented by encoding/json, with and without a prefix.
func checkJSONText(t *testing.T, n *yaml.Node, v any) {
	t.Helper()
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{"", jsonItemPrefix} {
		var want bytes.Buffer
		if err := json.Indent(&want, bytes.TrimSuffix(compact.Bytes(), []byte("\n")), prefix, "  "); err != nil {
			t.Fatal(err)
		}
		got, err := jsonText(n, prefix)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want.String() {
			t.Errorf("prefix %q: jsonText gives\n%s\nencoding/json\n%s", prefix, got, want.String())
		}
	}
}

// canonicalJSON is appendIndented's check alone, token by token, without
// the indenting: what appendIndented calls canonical it must call
// canonical too (checkIndented).
func canonicalJSON(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			end, ok := canonicalString(text, i+1)
			if !ok {
				return false
			}
			i = end
		case c == '-' || ('0' <= c && c <= '9'):
			end, ok := jsonNumber(text, i)
			if !ok {
				return false
			}
			i = end
		default:
			i++
		}
	}
	return true
}

// TestJSONNumbersAreWrittenAsTheyAre: a number in JSON's form (what a JSON
// input holds) is written byte for byte, whatever its size or precision,
// where encoding/json would round it (1.2345678901234568e+29). (yaml.v3
// takes 1e99999999 for a string, its float being out of range; the JSON
// reader tags it a float: cli's json-numbers-pass-through-byte-for-byte.)
// A string that reads as a number stays a string.
func TestJSONNumbersAreWrittenAsTheyAre(t *testing.T) {
	if got, _ := jsonText(StrNode("6"), ""); string(got) != `"6"` {
		t.Errorf("the string 6 is written as %s", got)
	}
	for _, num := range []string{"123456789012345678901234567890", "-0", "1.50", "1E5", "-1.0e-7", "0"} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(`{"x": `+num+`}`), &n); err != nil {
			t.Fatal(err)
		}
		got, err := jsonText(&n, "")
		if err != nil {
			t.Fatal(err)
		}
		if want := "{\n  \"x\": " + num + "\n}"; string(got) != want {
			t.Errorf("%s: written as\n%s", num, got)
		}
	}
	for _, notJSON := range []string{"+1", "01", "1.", ".5", "1e", "0x10", "1_000", "--1", "-"} {
		if isJSONNumber(notJSON) {
			t.Errorf("%q taken for a JSON number", notJSON)
		}
	}
}
