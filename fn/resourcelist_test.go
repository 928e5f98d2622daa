package fn

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// oneNodeItems are ResourceList items in block YAML: a NodeFeature, a rule
// that labels its node, and a pass-through ConfigMap with comments and
// unusual formatting that must survive byte for byte.
const oneNodeItems = `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: n1
    namespace: node-feature-discovery
    labels: {nfd.node.kubernetes.io/node-name: n1}
  spec:
    features:
      attributes:
        kernel.version: {elements: {major: "6"}}
- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata:
    name: kernel
  spec:
    rules:
    - name: kernel six
      labels: {kernel-six: "true"}
      matchFeatures:
      - feature: kernel.version
        matchExpressions:
          major: {op: In, value: ["6"]}
- apiVersion: v1   # a comment nfd-fn must keep
  kind: ConfigMap
  metadata:
    name: untouched
  data:
      odd-indent:    "kept as written"
`

// TestBlockListKeepsItsAPIVersionAndItemBytes checks that both ResourceList
// versions are read, that the header is written back as it came, and that
// untouched items pass through byte for byte.
func TestBlockListKeepsItsAPIVersionAndItemBytes(t *testing.T) {
	for _, apiVersion := range []string{"config.kubernetes.io/v1", "config.kubernetes.io/v1beta1"} {
		t.Run(apiVersion, func(t *testing.T) {
			in := "apiVersion: " + apiVersion + "\nkind: ResourceList\nitems:\n" + oneNodeItems
			out, code := runList(t, in)
			if code != 0 {
				t.Fatalf("exit code %d, output:\n%s", code, out)
			}
			if !strings.HasPrefix(out, "apiVersion: "+apiVersion+"\nkind: ResourceList\nitems:\n"+oneNodeItems) {
				t.Errorf("header or items changed:\n%s", out)
			}
			if got := nodeLabels(t, []byte(out), "n1"); got["feature.node.kubernetes.io/kernel-six"] != "true" {
				t.Errorf("Node n1 labels = %v, want kernel-six", got)
			}
		})
	}
}

// TestJSONInputGivesJSONOutput checks that a JSON ResourceList (either
// version, indented or compact, or a plain v1 List) comes back as JSON with
// its header, every input item unchanged and in order, and the new Node.
func TestJSONInputGivesJSONOutput(t *testing.T) {
	items := yamlItemsAsJSON(t, oneNodeItems)
	cases := []struct {
		name               string
		apiVersion, kind   string
		compact            bool
		wantListAPIVersion string
	}{
		{name: "v1-indented", apiVersion: "config.kubernetes.io/v1", kind: "ResourceList"},
		{name: "v1beta1-compact", apiVersion: "config.kubernetes.io/v1beta1", kind: "ResourceList", compact: true},
		{name: "kubernetes-v1-List", apiVersion: "v1", kind: "List"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := map[string]any{"apiVersion": c.apiVersion, "kind": c.kind, "items": items}
			var in []byte
			var err error
			if c.compact {
				in, err = json.Marshal(doc)
			} else {
				in, err = json.MarshalIndent(doc, "", "  ")
			}
			if err != nil {
				t.Fatal(err)
			}
			out, code := runList(t, string(in))
			if code != 0 {
				t.Fatalf("exit code %d, output:\n%s", code, out)
			}
			var got struct {
				APIVersion string           `json:"apiVersion"`
				Kind       string           `json:"kind"`
				Items      []map[string]any `json:"items"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if got.APIVersion != c.apiVersion || got.Kind != c.kind {
				t.Errorf("header = %s/%s, want %s/%s", got.APIVersion, got.Kind, c.apiVersion, c.kind)
			}
			if len(got.Items) != len(items)+1 {
				t.Fatalf("got %d items, want the %d input items and a Node", len(got.Items), len(items))
			}
			if diff := cmp.Diff(items, got.Items[:len(items)]); diff != "" {
				t.Errorf("input items changed (-in +out):\n%s", diff)
			}
			if got.Items[len(items)]["kind"] != "Node" {
				t.Errorf("last item is %v, want the new Node", got.Items[len(items)]["kind"])
			}
		})
	}
}

// TestJSONOutputKeepsKeyOrderAndScalarTypes checks the JSON writer: keys
// in input order, numbers, booleans and null as such, and no HTML escaping.
func TestJSONOutputKeepsKeyOrderAndScalarTypes(t *testing.T) {
	in := `{"kind":"ResourceList","apiVersion":"config.kubernetes.io/v1","items":[` +
		`{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"w"},` +
		`"spec":{"zeta":1,"alpha":1.5,"on":true,"off":null,"text":"a<b & c>d","date":"2024-01-02"}}]}`
	out, code := runList(t, in)
	if code != 0 {
		t.Fatalf("exit code %d, output:\n%s", code, out)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(out)); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if compact.String() != in {
		t.Errorf("JSON changed:\n got %s\nwant %s", compact.String(), in)
	}
}

// TestJSONErrorsComeBackAsResultsNamingTheObject checks a broken rule in
// a JSON list with no path annotations (as kustomize sends it): the exit
// code is 1 and the result names the object and field but no file.
func TestJSONErrorsComeBackAsResultsNamingTheObject(t *testing.T) {
	in := `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[` +
		`{"apiVersion":"nfd.k8s-sigs.io/v1alpha1","kind":"NodeFeatureRule","metadata":{"name":"bad","namespace":"ops"},` +
		`"spec":{"rules":[{"name":"r","labels":{"x":"y"},"matchFeatures":[{"feature":"kernel.config",` +
		`"matchExpressions":{"X86":{"op":"Exists","value":["y"]}}}]}]}}]}`
	out, code := runList(t, in)
	if code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, out)
	}
	if !json.Valid([]byte(out)) {
		t.Fatalf("output is not JSON:\n%s", out)
	}
	got := testkit.Read(t, []byte(out))
	if len(got.Results) == 0 {
		t.Fatalf("no results in:\n%s", out)
	}
	r := got.Results[0]
	want := map[string]string{"apiVersion": "nfd.k8s-sigs.io/v1alpha1", "kind": "NodeFeatureRule", "name": "bad", "namespace": "ops"}
	if diff := cmp.Diff(want, r.ResourceRef); diff != "" {
		t.Errorf("resourceRef (-want +got):\n%s", diff)
	}
	if r.File.Path != "" {
		t.Errorf("result has a file although the input had no path annotations: %+v", r)
	}
	if r.Field.Path != "spec.rules[0].matchFeatures[0].matchExpressions.X86.value" {
		t.Errorf("field = %v", r.Field.Path)
	}
}

// TestFlowStyleYAMLIsWrittenAsBlockYAML checks that a flow-style list,
// which the fast splitter does not handle, is read whole and written as
// block YAML with its header and every item.
func TestFlowStyleYAMLIsWrittenAsBlockYAML(t *testing.T) {
	in := `{apiVersion: config.kubernetes.io/v1beta1, kind: ResourceList, items: [` +
		`{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}, ` +
		`{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}]}`
	out, code := runList(t, in)
	if code != 0 {
		t.Fatalf("exit code %d, output:\n%s", code, out)
	}
	want := "apiVersion: config.kubernetes.io/v1beta1\nkind: ResourceList\nitems:\n" +
		"  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n" +
		"  - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

// TestUnreadableListsAreErrors checks the inputs nfd-fn refuses instead of
// silently dropping items.
func TestUnreadableListsAreErrors(t *testing.T) {
	cases := []struct {
		name, in, wantErr string
	}{
		{"empty-input", "", "the input is empty"},
		{"two-documents", "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n---\napiVersion: v1\nkind: ConfigMap\n",
			"more than one YAML document (a second one starts at line 4)"},
		{"items-is-a-mapping", `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":{"a":1}}`,
			"ResourceList.items must be a list, got a mapping"},
		{"not-a-mapping", "- a\n- b\n", "expected a YAML mapping with items"},
		{"bad-yaml", "apiVersion: [\n", "parsing the ResourceList's apiVersion"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := Run([]byte(c.in), &out, RunOptions{})
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}

// TestTrailingEmptyDocumentIsAccepted checks that a list ending in a bare
// document marker (as some tools write) is not mistaken for two lists.
func TestTrailingEmptyDocumentIsAccepted(t *testing.T) {
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n---\n"
	if out, code := runList(t, in); code != 0 || !strings.Contains(out, "name: a") {
		t.Errorf("exit code %d, output:\n%s", code, out)
	}
}

// yamlItemsAsJSON reads a YAML sequence into JSON-shaped values.
func yamlItemsAsJSON(t *testing.T, items string) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := yaml.Unmarshal([]byte(items), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// outputNodes maps the Nodes of a YAML or JSON ResourceList by name to
// their metadata.
func outputNodes(t *testing.T, list []byte) map[string]api.ObjectMeta {
	t.Helper()
	var rl struct {
		Items []struct {
			Kind     string         `json:"kind"`
			Metadata api.ObjectMeta `json:"metadata"`
		} `json:"items"`
	}
	if err := yaml.Unmarshal(list, &rl); err != nil {
		t.Fatalf("output is not a ResourceList: %v", err)
	}
	out := map[string]api.ObjectMeta{}
	for _, it := range rl.Items {
		if it.Kind == "Node" {
			out[it.Metadata.Name] = it.Metadata
		}
	}
	return out
}

// nodeLabels returns the labels of the Node called name in a YAML or JSON
// ResourceList.
func nodeLabels(t *testing.T, list []byte, name string) map[string]string {
	t.Helper()
	md, ok := outputNodes(t, list)[name]
	if !ok {
		t.Fatalf("no Node %q in the output", name)
	}
	return md.Labels
}

// TestUnreadableItemIsAnErrorResultAndLeftOut checks that an item that does
// not parse fails the run with a result naming its position and line,
// while the output still parses and holds every other item.
func TestUnreadableItemIsAnErrorResultAndLeftOut(t *testing.T) {
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + oneNodeItems +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: *undefined\n"
	out, code := runList(t, in)
	if code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, out)
	}
	var got testkit.List
	if err := yaml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, out)
	}
	if len(got.Items) != 4 { // three input items and the new Node
		t.Errorf("output has %d items, want 4", len(got.Items))
	}
	for _, r := range got.Results {
		if r.Severity == "error" && strings.Contains(r.Message, "items[3] (line 32)") && strings.Contains(r.Message, "unknown anchor") {
			return
		}
	}
	t.Errorf("no error result names items[3] at line 40:\n%s", out)
}
