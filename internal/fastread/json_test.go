package fastread

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// jsonOf is the object of a YAML document or one-entry sequence as
// encoding/json writes it: with prefix before every line and indent per
// level (compact when both are empty). kubectl get -o json writes a
// List with MarshalIndent and four spaces, so an item cut out of it is
// jsonOf(doc, "        ", "    ").
func jsonOf(tb testing.TB, doc, prefix, indent string) []byte {
	tb.Helper()
	var obj any
	if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
		tb.Fatal(err)
	}
	if items, ok := obj.([]any); ok {
		obj = items[0]
	}
	var out []byte
	var err error
	if prefix == "" && indent == "" {
		out, err = json.Marshal(obj)
	} else {
		out, err = json.MarshalIndent(obj, prefix, indent)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return append([]byte(prefix), out...)
}

// kubectlItem is doc as an item of kubectl get -o json's List, cut out
// with its indentation and a final line break.
func kubectlItem(tb testing.TB, doc string) string {
	return string(jsonOf(tb, doc, "        ", "    ")) + "\n"
}

func TestDecodeFastReadsJSON(t *testing.T) {
	tests := []struct{ name, raw string }{
		{"kubectl-list-item", kubectlItem(t, kubectlNodeFeature)},
		{"kubectl-document", string(jsonOf(t, kubectlNodeFeature, "", "    "))},
		{"compact-one-line", string(jsonOf(t, kubectlNodeFeature, "", ""))},
		{"leading-line-breaks", "\n\n" + string(jsonOf(t, kubectlNodeFeature, "", ""))},
		{"worker-node-as-list-item", kubectlItem(t, string(workerNode(t)))},
		{"worker-node-compact", string(jsonOf(t, string(workerNode(t)), "", ""))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !checkAgrees(t, []byte(tc.raw)) {
				t.Fatalf("decodeFast fell back on:\n%s", tc.raw)
			}
		})
	}
}

// TestDecodeFastReadsJSONEscapes checks the escapes and characters the
// JSON reader decodes, in values and in keys, against the general path.
func TestDecodeFastReadsJSONEscapes(t *testing.T) {
	base := kubectlItem(t, kubectlNodeFeature)
	tests := []struct{ name, from, to, field, want string }{
		{"quote-backslash-controls", `"GenuineIntel"`, `"Genuine\"\\\b\f\n\r\tIntel"`, "vendor_id", "Genuine\"\\\b\f\n\r\tIntel"},
		{"unicode-escapes", `"GenuineIntel"`, `"\u0026\u00e9\u20ac\uFFFD\u0000\u2028"`, "vendor_id", "&é€\uFFFD\x00\u2028"},
		{"html-escapes-as-encoding-json-writes", `"GenuineIntel"`, `"a\u003cb\u003ec"`, "vendor_id", "a<b>c"},
		{"non-ascii-text", `"GenuineIntel"`, `"Génuine–Intel 😀"`, "vendor_id", "Génuine–Intel 😀"},
		{"escaped-key", `"vendor_id"`, `"vendor\u005fid"`, "vendor_id", "GenuineIntel"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw := strings.Replace(base, tc.from, tc.to, 1)
			if raw == base {
				t.Fatalf("%q not in the base text", tc.from)
			}
			if !checkAgrees(t, []byte(raw)) {
				t.Fatalf("decodeFast fell back on:\n%s", raw)
			}
			d, _ := decodeFull([]byte(raw))
			got := d.Obj.(*api.NodeFeature).Spec.Features.Attributes["cpu.model"].Elements[tc.field]
			if got != tc.want {
				t.Errorf("%s = %q, want %q", tc.field, got, tc.want)
			}
		})
	}
	t.Run("escaped-known-field-name", func(t *testing.T) {
		raw := strings.Replace(base, `"name": "worker-1"`, `"n\u0061me": "worker-1"`, 1)
		if !checkAgrees(t, []byte(raw)) {
			t.Fatalf("decodeFast fell back on:\n%s", raw)
		}
	})
}

func TestDecodeFastFallsBackOnJSON(t *testing.T) {
	base := kubectlItem(t, kubectlNodeFeature)
	// deep nests an empty object in managedFields at depth levels: the
	// metadata field is at depth 1, so its innermost {} is at depth
	// levels, which skip refuses beyond maxBlockDepth.
	deep := func(levels int) string {
		levels -= 3
		return `"managedFields": [{"fieldsV1": ` + strings.Repeat(`{"f": `, levels) + "{}" + strings.Repeat("}", levels) + `}],`
	}
	tests := []struct{ name, from, to string }{
		{"escaped-slash", `"GenuineIntel"`, `"Genuine\/Intel"`},
		{"surrogate-pair-escape", `"GenuineIntel"`, `"\ud83d\ude00"`},
		{"lone-surrogate-escape", `"GenuineIntel"`, `"\udfff"`},
		{"yaml-only-escape", `"GenuineIntel"`, `"\x41"`},
		{"short-unicode-escape", `"GenuineIntel"`, `"\u00e"`},
		{"raw-control-character", `"GenuineIntel"`, "\"Genuine\x01Intel\""},
		{"raw-tab-in-string", `"GenuineIntel"`, "\"Genuine\tIntel\""},
		{"raw-del", `"GenuineIntel"`, "\"Genuine\x7fIntel\""},
		{"invalid-utf8", `"GenuineIntel"`, "\"Genuine\xffIntel\""},
		{"raw-next-line", `"GenuineIntel"`, "\"Genuine\u0085Intel\""},
		{"raw-line-separator", `"GenuineIntel"`, "\"Genuine\u2028Intel\""},
		{"raw-byte-order-mark", `"GenuineIntel"`, "\"Genuine\ufeffIntel\""},
		{"raw-non-character", `"GenuineIntel"`, "\"Genuine\uffffIntel\""},
		{"number-where-string", `"family": "6"`, `"family": 6`},
		{"float-where-string", `"family": "6"`, `"family": 6.0e1`},
		{"bool-where-string", `"family": "6"`, `"family": true`},
		{"number-where-elements-belong", `"elements": {}`, `"elements": 1`},
		{"duplicate-known-field", `"name": "worker-1",`, `"name": "worker-1", "name": "worker-2",`},
		{"duplicate-feature-element", `"ADX": {},`, `"ADX": {}, "ADX": {},`},
		{"duplicate-label", `"nfd.node.kubernetes.io/node-name": "worker-1"`, `"nfd.node.kubernetes.io/node-name": "worker-1", "nfd.node.kubernetes.io/node-name": "w"`},
		{"duplicate-key-in-skipped-field", `"kind": "Pod",`, `"kind": "Pod", "kind": "Pod",`},
		{"duplicate-key-escaped-differently", `"kind": "Pod",`, `"kind": "Pod", "k\u0069nd": "Pod",`},
		{"nesting-deeper-than-the-limit", `"generation": 3,`, `"generation": 3, ` + deep(maxBlockDepth+1)},
		{"trailing-comma", `"AVX": {}`, `"AVX": {},`},
		{"missing-comma", `"ADX": {},`, `"ADX": {}`},
		{"tab-between-tokens", `"family": "6"`, "\"family\":\t\"6\""},
		{"crlf-line-break", `"family": "6",`, "\"family\": \"6\",\r"},
		{"key-colon-on-next-line", `"family": "6"`, "\"family\"\n: \"6\""},
		{"key-longer-than-the-limit", `"nfd.node.kubernetes.io/node-name"`, `"` + strings.Repeat("k", maxKeyLen) + `"`},
		{"single-quoted-string", `"family": "6"`, `"family": '6'`},
		{"unquoted-key", `"family": "6"`, `family: "6"`},
		{"leading-zero", `"generation": 3`, `"generation": 03`},
		{"bare-word", `"generation": 3`, `"generation": three`},
		{"other-kind", `"kind": "NodeFeature"`, `"kind": "NodeFeatureRule"`},
		{"upper-case-field-name", `"metadata"`, `"Metadata"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw := strings.Replace(base, tc.from, tc.to, 1)
			if raw == base {
				t.Fatalf("%q not in the base text", tc.from)
			}
			checkAgrees(t, []byte(raw))
			if _, ok := decodeFull([]byte(raw)); ok {
				t.Errorf("decodeFast read it; want a fallback:\n%s", raw)
			}
		})
	}
	for name, raw := range map[string]string{
		"trailing-garbage": base + "x",
		"second-object":    base + "{}",
		"trailing-comment": base + "# exported\n",
		"leading-tab":      "\t" + base,
		"truncated":        base[:len(base)/2],
		"empty-object":     "{}",
		"array":            "[" + base + "]",
	} {
		checkAgrees(t, []byte(raw))
		if _, ok := decodeFull([]byte(raw)); ok {
			t.Errorf("%s: decodeFast read it; want a fallback:\n%s", name, raw)
		}
	}
	// Just under the limits, the same edits are read.
	for name, raw := range map[string]string{
		"nesting-at-the-limit": strings.Replace(base, `"generation": 3,`, `"generation": 3, `+deep(maxBlockDepth), 1),
		"key-at-the-limit":     strings.Replace(base, `"nfd.node.kubernetes.io/node-name"`, `"`+strings.Repeat("k", maxKeyLen-2)+`"`, 1),
	} {
		if !checkAgrees(t, []byte(raw)) {
			t.Errorf("%s: decodeFast fell back", name)
		}
	}
}

// TestJSONStringsReadAsYAMLReadsThem holds the JSON reader's strings to
// yaml.v3's reading of the same JSON: every escape and a sweep of the
// characters, raw and escaped. Where the reader reads a string, yaml.v3
// must read the same text (and encoding/json too, for JSON's own
// escapes); where yaml.v3 reads a string that JSON reads otherwise, or
// refuses it, the reader must refuse it.
func TestJSONStringsReadAsYAMLReadsThem(t *testing.T) {
	check := func(body string) {
		t.Helper()
		quoted := `"` + body + `"`
		r := &jsonReader{src: []byte(quoted)}
		got, ok := r.str()
		ok = ok && r.pos == len(quoted)
		var n yaml.Node
		yerr := yaml.Unmarshal([]byte("{"+quoted+": 1}"), &n)
		var yamlText string
		if yerr == nil {
			yamlText = n.Content[0].Content[0].Value
		}
		var jsonText string
		jerr := json.Unmarshal([]byte(quoted), &jsonText)
		switch {
		case ok && yerr != nil:
			t.Errorf("reader reads %q, yaml.v3 refuses it: %v", quoted, yerr)
		case ok && string(got) != yamlText:
			t.Errorf("reader reads %q as %q, yaml.v3 as %q", quoted, got, yamlText)
		case ok && (jerr != nil || jsonText != yamlText):
			t.Errorf("reader reads %q as %q, encoding/json as %q (%v)", quoted, got, jsonText, jerr)
		case !ok && yerr == nil && jerr == nil && yamlText == jsonText && wantRead(body):
			t.Errorf("reader refuses %q, which yaml.v3 and encoding/json both read as %q", quoted, yamlText)
		}
	}
	for _, e := range []string{`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, `\/`, `\u0041`, `\u00e9`, `\u0000`, `\u001f`,
		`\u007f`, `\u0085`, `\u2028`, `\ufeff`, `\uFFFE`, `\uffff`, `\ud7ff`, `\ue000`, `\ud800`, `\udbff\udfff`, `\x41`, `\a`,
		`\e`, `\0`, `\ `, `\N`, `\_`, `\L`, `\P`, `\U0001F600`, `\'`, `\u12`, `\uZZZZ`} {
		check("a" + e + "b")
	}
	for cp := rune(0); cp <= utf8.MaxRune; cp += 89 {
		for _, c := range []rune{cp, cp + 1} {
			if utf8.ValidRune(c) {
				check("a" + string(c) + "b")
			}
			if c <= 0xFFFF {
				check(fmt.Sprintf(`a\u%04x`, c))
			}
		}
	}
	for _, c := range []rune{0x7f, 0x80, 0x9f, 0xa0, 0x2027, 0x2029, 0xd7ff, 0xe000, 0xfeff, 0xfffd, 0xfffe, 0xffff, 0x10000, 0x10ffff} {
		check(string(c))
	}
	check("\xff")
	check("\xed\xa0\x80") // an encoded surrogate
	check("\xc0\xaf")     // an overlong '/'
}

// wantRead reports the string bodies the reader is meant to read: those
// without the escapes and characters it refuses on purpose (see
// jsonReader), whatever yaml.v3 makes of them.
func wantRead(body string) bool {
	for _, c := range body {
		switch {
		case c == '\t', c == 0x7f, c == 0x2028, c == 0x2029, c == 0xfeff:
			return false
		}
	}
	return true
}

// TestReadersRefuseACollectionLeftUnread checks the readers' protocol: a
// receiver that accepts a collection without consuming it makes the read
// fail rather than go on with the collection's contents.
func TestReadersRefuseACollectionLeftUnread(t *testing.T) {
	newBlock := func() reader { return &block{} }
	newJSON := func() reader { return &jsonReader{} }
	for name, in := range map[string]struct {
		r   func() reader
		raw string
	}{
		"block-mapping":  {newBlock, "a:\n  b: c\n"},
		"json-object":    {newJSON, `{"a": {"b": "c"}}`},
		"block-sequence": {newBlock, "a:\n- b: c\n- d\n"},
		"json-array":     {newJSON, `{"a": [{"b": 1}, 2]}`},
	} {
		r := in.r()
		ok := r.object([]byte(in.raw), func(v value) bool {
			return r.mapping(v, func(k []byte, sub value) bool { return sub.kind == vMap || sub.kind == vSeq })
		})
		if ok {
			t.Errorf("%s: read with a collection left unread", name)
		}
		r = in.r()
		if !r.object([]byte(in.raw), func(v value) bool { return r.skip(v, 1) }) {
			t.Errorf("%s: skip does not read it", name)
		}
	}
}

func TestNodeFastDecodeReadsJSON(t *testing.T) {
	for name, raw := range map[string]string{
		"kubectl-list-item": kubectlItem(t, kubectlNode),
		"compact-one-line":  string(jsonOf(t, kubectlNode, "", "")),
	} {
		if !checkAgreesNode(t, []byte(raw)) {
			t.Errorf("%s: DecodeNodeFast fell back on a kubectl Node:\n%s", name, raw)
		}
	}
	base := kubectlItem(t, kubectlNode)
	for name, c := range map[string]struct{ from, to string }{
		"label-not-a-scalar":       {`"node-role.kubernetes.io/worker": ""`, `"node-role.kubernetes.io/worker": ["a"]`},
		"key-twice-in-status":      {`"type": "InternalIP"`, `"type": "InternalIP", "type": "Hostname"`},
		"taint-not-an-object":      {`"taints": [`, `"taints": ["NoSchedule", `},
		"capacity-value-an-object": {`"cpu": "96"`, `"cpu": {"x": "y"}`},
		"invalid-name":             {`"name": "worker-1"`, `"name": "Worker_1"`},
	} {
		raw := strings.Replace(base, c.from, c.to, 1)
		if raw == base {
			t.Fatalf("%s: %q not in the Node", name, c.from)
		}
		checkNodeAgrees(t, []byte(raw))
		if _, ok := DecodeNodeFast([]byte(raw)); ok {
			t.Errorf("%s: DecodeNodeFast read it; want a fallback:\n%s", name, raw)
		}
	}
	// A number in capacity is read as written, as the tree's StringMap
	// reads it.
	d, ok := DecodeNodeFast([]byte(strings.Replace(base, `"cpu": "96"`, `"cpu": 96`, 1)))
	if !ok || d.Obj.(*objects.Node).State.Capacity["cpu"] != "96" {
		t.Errorf("a numeric capacity: ok=%v", ok)
	}
}

func TestOtherFastDecodeReadsJSON(t *testing.T) {
	configMap := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: ns\n  annotations:\n" +
		"    config.kubernetes.io/path: a.yaml\n    x: ~\n    n: 3\ndata:\n  k: v\n  j: '{\"a\": [1, 2]}'\n"
	for name, raw := range map[string]string{
		"kubectl-list-item": kubectlItem(t, configMap),
		"compact-one-line":  string(jsonOf(t, configMap, "", "")),
	} {
		checkOtherAgrees(t, []byte(raw))
		d, ann, ok := DecodeOtherFast([]byte(raw))
		if !ok {
			t.Fatalf("%s: DecodeOtherFast fell back on:\n%s", name, raw)
		}
		if d.Ref.Name != "c" || d.Ref.Namespace != "ns" || ann["config.kubernetes.io/path"] != "a.yaml" || ann["x"] != "" || ann["n"] != "3" {
			t.Errorf("%s: read %+v, annotations %v", name, d.Ref, ann)
		}
	}
	for name, raw := range map[string]string{
		"node":           kubectlItem(t, kubectlNode),
		"node-feature":   kubectlItem(t, kubectlNodeFeature),
		"key-twice":      `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k": "v", "k": "w"}}`,
		"metadata-text":  `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": "c"}`,
		"no-api-version": `{"kind": "ConfigMap", "metadata": {"name": "c"}}`,
	} {
		checkOtherAgrees(t, []byte(raw))
		if _, _, ok := DecodeOtherFast([]byte(raw)); ok {
			t.Errorf("%s: DecodeOtherFast read what it must leave to the general path:\n%s", name, raw)
		}
	}
}

func TestLeanReadsJSONAndLoadsTheSpecAgain(t *testing.T) {
	raw := []byte(kubectlItem(t, kubectlNodeFeature))
	full, ok := decodeFull(raw)
	if !ok {
		t.Fatal("decodeFast fell back")
	}
	checkLeanAgrees(t, raw, full, true)
	in := &testInput{}
	d, ok := DecodeLean(raw, &FeatureNames{}, in)
	if !ok {
		t.Fatal("DecodeLean fell back")
	}
	nf := d.Obj.(*objects.LeanNodeFeature).Names
	if got := nf.Spec.Features.Flags["cpu.cpuid"].Elements; got != nil {
		t.Errorf("lean NodeFeature keeps its elements: %v", got)
	}
	if got, want := load(t, d, nil), &full.Obj.(*api.NodeFeature).Spec; !reflect.DeepEqual(got, want) || in.released != 1 {
		t.Errorf("Load = %+v (released %d times), want %+v", got, in.released, want)
	}
}

// TestJSONAndYAMLReadTheSameObject checks that a NodeFeature, a Node and a
// ConfigMap read from JSON are what the same objects read from YAML are.
func TestJSONAndYAMLReadTheSameObject(t *testing.T) {
	for _, doc := range []string{kubectlNodeFeature, string(workerNode(t))} {
		fromYAML, ok1 := decodeFull([]byte(doc))
		fromJSON, ok2 := decodeFull([]byte(kubectlItem(t, doc)))
		if !ok1 || !ok2 || !reflect.DeepEqual(fromYAML, fromJSON) {
			t.Errorf("YAML (ok=%v) and JSON (ok=%v) read different NodeFeatures", ok1, ok2)
		}
	}
	fromYAML, ok1 := DecodeNodeFast([]byte(kubectlNode))
	fromJSON, ok2 := DecodeNodeFast([]byte(kubectlItem(t, kubectlNode)))
	if !ok1 || !ok2 || !reflect.DeepEqual(fromYAML, fromJSON) {
		t.Errorf("YAML (ok=%v) and JSON (ok=%v) read different Nodes", ok1, ok2)
	}
}

func FuzzFastDecodeJSON(f *testing.F) {
	for _, seed := range fastSeeds() {
		f.Add(jsonOf(f, seed, "", ""))
		f.Add([]byte(kubectlItem(f, seed)))
	}
	f.Add([]byte(`{"apiVersion":"nfd.k8s-sigs.io/v1alpha1","kind":"NodeFeature","metadata":{"name":"n\u0031","labels":{"a\/b":"\u00e9"}},` +
		`"spec":{"features":{"flags":{"a.b":{"elements":{"X":{},"Y":null}}},"instances":{"c.d":{"elements":[{"attributes":{"k":"v"}},{},null]}}},"labels":{"x":"\"\\\n"}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkAgrees(t, raw)
		checkReadsOnlyJSON(t, raw)
	})
}

// checkReadsOnlyJSON fails when a fast decoder reads text that starts as
// JSON but is not valid JSON: the ResourceList reader trusts their
// reading to write such an item back re-indented, without a parse.
func checkReadsOnlyJSON(t *testing.T, raw []byte) {
	t.Helper()
	if _, isJSON := newDecoder(raw).r.(*jsonReader); !isJSON || json.Valid(raw) {
		return
	}
	_, fast := decodeFull(raw)
	_, lean := DecodeLean(raw, nil, nil)
	_, node := DecodeNodeFast(raw)
	_, _, other := DecodeOtherFast(raw)
	if fast || lean || node || other {
		t.Fatalf("a fast decoder read text that is not valid JSON (fast %v, lean %v, node %v, other %v):\n%q", fast, lean, node, other, raw)
	}
}
