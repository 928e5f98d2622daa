package objects

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// doc parses one YAML document and returns its root node.
func doc(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		t.Fatalf("test YAML does not parse: %v", err)
	}
	if len(n.Content) == 0 {
		return nil
	}
	return n.Content[0]
}

func TestDecodeClassifiesDocuments(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		class   Class
		objType string
		ref     diag.ObjectRef
	}{
		{
			name:    "node-feature",
			yaml:    "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: n1, namespace: nfd}\nspec: {features: {}}\n",
			class:   NFD,
			objType: "*v1alpha1.NodeFeature",
			ref:     diag.ObjectRef{APIVersion: api.APIVersion, Kind: "NodeFeature", Namespace: "nfd", Name: "n1"},
		},
		{
			name:    "node-feature-rule",
			yaml:    "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec: {rules: []}\n",
			class:   NFD,
			objType: "*v1alpha1.NodeFeatureRule",
			ref:     diag.ObjectRef{APIVersion: api.APIVersion, Kind: "NodeFeatureRule", Name: "r"},
		},
		{
			name:    "node-feature-group",
			yaml:    "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureGroup\nmetadata: {name: g, namespace: ns}\nspec: {featureGroupRules: []}\n",
			class:   NFD,
			objType: "*v1alpha1.NodeFeatureGroup",
			ref:     diag.ObjectRef{APIVersion: api.APIVersion, Kind: "NodeFeatureGroup", Namespace: "ns", Name: "g"},
		},
		{
			name:    "v1-node",
			yaml:    "apiVersion: v1\nkind: Node\nmetadata: {name: worker-1}\n",
			class:   KubeNode,
			objType: "*objects.Node",
			ref:     diag.ObjectRef{APIVersion: "v1", Kind: "Node", Name: "worker-1"},
		},
		{
			name:  "node-of-another-api-group-is-other",
			yaml:  "apiVersion: example.com/v1\nkind: Node\nmetadata: {name: x}\n",
			class: Other,
			ref:   diag.ObjectRef{APIVersion: "example.com/v1", Kind: "Node", Name: "x"},
		},
		{
			name:  "other-kind",
			yaml:  "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: default}\n",
			class: Other,
			ref:   diag.ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "d"},
		},
		{
			name:  "unknown-nfd-kind",
			yaml:  "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureThing\nmetadata: {name: t}\n",
			class: UnknownNFD,
			ref:   diag.ObjectRef{APIVersion: api.APIVersion, Kind: "NodeFeatureThing", Name: "t"},
		},
		{
			name:  "wrong-nfd-api-version",
			yaml:  "apiVersion: nfd.k8s-sigs.io/v1beta1\nkind: NodeFeatureRule\nmetadata: {name: r}\n",
			class: UnknownNFD,
			ref:   diag.ObjectRef{APIVersion: "nfd.k8s-sigs.io/v1beta1", Kind: "NodeFeatureRule", Name: "r"},
		},
		{
			name:  "scalar-is-not-an-object",
			yaml:  "just text\n",
			class: NotObject,
		},
		{
			name:  "sequence-is-not-an-object",
			yaml:  "- a\n- b\n",
			class: NotObject,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Decode(doc(t, tc.yaml))
			if d.Class != tc.class {
				t.Errorf("Class = %v, want %v", d.Class, tc.class)
			}
			if d.Ref != tc.ref {
				t.Errorf("Ref = %+v, want %+v", d.Ref, tc.ref)
			}
			gotType := ""
			if d.Obj != nil {
				gotType = reflect.TypeOf(d.Obj).String()
			}
			if gotType != tc.objType {
				t.Errorf("Obj type = %q, want %q", gotType, tc.objType)
			}
			if len(d.Errs) != 0 {
				t.Errorf("unexpected decoding errors: %v", d.Errs)
			}
		})
	}
}

func TestDecodeNilIsNotAnObject(t *testing.T) {
	if d := Decode(nil); d.Class != NotObject || d.Obj != nil {
		t.Errorf("Decode(nil) = %+v, want NotObject", d)
	}
}

func TestDecodeNodeReadsTheManagedState(t *testing.T) {
	d := Decode(doc(t, `apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: {kubernetes.io/hostname: worker-1, feature.node.kubernetes.io/x: "true"}
  annotations: {nfd.node.kubernetes.io/feature-labels: x}
spec:
  taints:
  - {key: example.com/gpu, value: "yes", effect: NoSchedule, timeAdded: "2024-01-01T00:00:00Z"}
  - {key: node.kubernetes.io/unschedulable, effect: NoSchedule}
status:
  capacity: {cpu: 4, example.com/dev: "2"}
  allocatable: {cpu: 3500m}
`))
	node, ok := d.Obj.(*Node)
	if !ok {
		t.Fatalf("Obj = %T, want *Node", d.Obj)
	}
	want := &Node{Name: "worker-1", State: NodeState{
		Labels:      map[string]string{"kubernetes.io/hostname": "worker-1", "feature.node.kubernetes.io/x": "true"},
		Annotations: map[string]string{"nfd.node.kubernetes.io/feature-labels": "x"},
		Taints: []api.Taint{
			{Key: "example.com/gpu", Value: "yes", Effect: "NoSchedule", TimeAdded: "2024-01-01T00:00:00Z"},
			{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"},
		},
		Capacity:    map[string]string{"cpu": "4", "example.com/dev": "2"},
		Allocatable: map[string]string{"cpu": "3500m"},
	}}
	if !reflect.DeepEqual(node, want) {
		t.Errorf("node =\n%+v\nwant\n%+v", node, want)
	}
}

func TestNodeStateIsEmpty(t *testing.T) {
	tests := []struct {
		name  string
		state NodeState
		want  bool
	}{
		{"zero", NodeState{}, true},
		{"empty-maps", NodeState{Labels: map[string]string{}, Capacity: map[string]string{}}, true},
		{"one-label", NodeState{Labels: map[string]string{"a": "b"}}, false},
		{"one-taint", NodeState{Taints: []api.Taint{{Key: "k", Effect: "NoSchedule"}}}, false},
		{"allocatable-only", NodeState{Allocatable: map[string]string{"x": "1"}}, false},
	}
	for _, tc := range tests {
		if got := tc.state.IsEmpty(); got != tc.want {
			t.Errorf("%s: IsEmpty() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestStrictDecodeErrorsCarryFieldPathPositionAndRejectTheObject(t *testing.T) {
	s := &Set{StrictFieldValidation: true}
	ds := readText(s, []byte(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: r
spec:
  rules:
  - name: x
    matchOn: []
    labels: [a]
---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: good
spec:
  rules:
  - name: w
    labels: {a: "1"}
`), "rules.yaml", false)
	want := diag.List{
		{Severity: diag.Error, Check: "unknown-field",
			Object: diag.ObjectRef{APIVersion: api.APIVersion, Kind: "NodeFeatureRule", Name: "r"}, Field: "spec.rules[0].matchOn",
			Pos: diag.Position{File: "rules.yaml", Index: 0, Line: 8, Column: 5},
			Message: `unknown field "matchOn": matchOn is the legacy custom-source syntax of nfd-worker; NodeFeatureRules use matchFeatures and matchAny; ` +
				"kubectl apply (fieldValidation=Strict) refuses this NodeFeatureRule whole: strict decoding error: unknown field \"spec.rules[0].matchOn\" " +
				"(under fieldValidation=Warn, client-go/Helm's default, it is pruned), so nfd-fn ignores it"},
		{Severity: diag.Error, Check: "schema",
			Object: diag.ObjectRef{APIVersion: api.APIVersion, Kind: "NodeFeatureRule", Name: "r"}, Field: "spec.rules[0].labels",
			Pos:     diag.Position{File: "rules.yaml", Index: 0, Line: 9, Column: 13},
			Message: `the API server refuses this NodeFeatureRule whole: NodeFeatureRule.nfd.k8s-sigs.io "r" is invalid: spec.rules[0].labels: Invalid value: "array": spec.rules[0].labels in body must be of type object: "array"; expected a mapping, got a list, so nfd-fn ignores it`},
	}
	if !reflect.DeepEqual(ds, want) {
		t.Errorf("diagnostics =\n%#v\nwant\n%#v", ds, want)
	}
	if len(s.Rules) != 2 || !s.Rules[0].Rejected || s.Rules[1].Rejected {
		t.Fatalf("rules: %d, rejected flags wrong: %+v", len(s.Rules), s.Rules)
	}
	accepted := s.AcceptedRules()
	if len(accepted) != 1 || accepted[0].Metadata.Name != "good" {
		t.Errorf("AcceptedRules() = %v, want only good", accepted)
	}
}

func TestAddReportsUnknownNFDKindsAndVersionsAtTheirKeys(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want diag.Diagnostic
	}{
		{
			name: "wrong-api-version-is-an-error",
			yaml: "kind: NodeFeatureRule\nmetadata: {name: b}\napiVersion: nfd.k8s-sigs.io/v1beta1\n",
			want: diag.Diagnostic{Severity: diag.Error, Check: "api-version",
				Object: diag.ObjectRef{APIVersion: "nfd.k8s-sigs.io/v1beta1", Kind: "NodeFeatureRule", Name: "b"}, Field: "apiVersion",
				Pos:     diag.Position{File: "f.yaml", Index: 3, Line: 3, Column: 1},
				Message: `unknown NFD API version "nfd.k8s-sigs.io/v1beta1": nfd-master serves nfd.k8s-sigs.io/v1alpha1`},
		},
		{
			name: "unknown-kind-is-an-error",
			yaml: "apiVersion: nfd.k8s-sigs.io/v1alpha1\nmetadata: {name: c}\n  # comment\nkind: Foo\n",
			want: diag.Diagnostic{Severity: diag.Error, Check: "unknown-kind",
				Object: diag.ObjectRef{APIVersion: api.APIVersion, Kind: "Foo", Name: "c"}, Field: "kind",
				Pos:     diag.Position{File: "f.yaml", Index: 3, Line: 4, Column: 1},
				Message: `unknown NFD kind "Foo": the API server has no such kind (NFD's are NodeFeature, NodeFeatureGroup, NodeFeatureRule)`},
		},
		{
			name: "misspelt-kind-gets-a-did-you-mean",
			yaml: "apiVersion: nfd.k8s-sigs.io/v1alpha1\nmetadata: {name: c}\nkind: NodeFeatureRules\n",
			want: diag.Diagnostic{Severity: diag.Error, Check: "unknown-kind",
				Object: diag.ObjectRef{APIVersion: api.APIVersion, Kind: "NodeFeatureRules", Name: "c"}, Field: "kind",
				Pos: diag.Position{File: "f.yaml", Index: 3, Line: 3, Column: 1}, Suggestion: "NodeFeatureRule",
				Message: `unknown NFD kind "NodeFeatureRules": did you mean "NodeFeatureRule"? The API server has no such kind`},
		},
		{
			name: "misspelt-group-gets-a-did-you-mean",
			yaml: "apiVersion: nfd.k8s.sigs.io/v1alpha1\nmetadata: {name: c}\nkind: NodeFeatureRule\n",
			want: diag.Diagnostic{Severity: diag.Error, Check: "api-version",
				Object: diag.ObjectRef{APIVersion: "nfd.k8s.sigs.io/v1alpha1", Kind: "NodeFeatureRule", Name: "c"}, Field: "apiVersion",
				Pos: diag.Position{File: "f.yaml", Index: 3, Line: 1, Column: 1}, Suggestion: api.APIVersion,
				Message: `API group "nfd.k8s.sigs.io" is not NFD's, so nfd-master never reads this NodeFeatureRule: did you mean "nfd.k8s-sigs.io/v1alpha1"?`},
		},
		{
			name: "misspelt-kind-in-an-nfd-looking-group-is-an-error",
			yaml: "apiVersion: nfd.kubernetes.io/v1alpha1\nmetadata: {name: c}\nkind: NodeFeatureRules\n",
			want: diag.Diagnostic{Severity: diag.Error, Check: "api-version",
				Object: diag.ObjectRef{APIVersion: "nfd.kubernetes.io/v1alpha1", Kind: "NodeFeatureRules", Name: "c"}, Field: "apiVersion",
				Pos: diag.Position{File: "f.yaml", Index: 3, Line: 1, Column: 1}, Suggestion: api.APIVersion,
				Message: `API group "nfd.kubernetes.io" is not NFD's, so nfd-master never reads this NodeFeatureRules: did you mean "nfd.k8s-sigs.io/v1alpha1"? (and kind "NodeFeatureRule"?)`},
		},
		{
			name: "nfd-kind-in-another-group-is-an-error",
			yaml: "apiVersion: example.com/v1\nmetadata: {name: c}\nkind: NodeFeatureGroup\n",
			want: diag.Diagnostic{Severity: diag.Error, Check: "api-version",
				Object: diag.ObjectRef{APIVersion: "example.com/v1", Kind: "NodeFeatureGroup", Name: "c"}, Field: "apiVersion",
				Pos: diag.Position{File: "f.yaml", Index: 3, Line: 1, Column: 1}, Suggestion: api.APIVersion,
				Message: `API group "example.com" is not NFD's, so nfd-master never reads this NodeFeatureGroup: did you mean "nfd.k8s-sigs.io/v1alpha1"?`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := doc(t, tc.yaml)
			s := &Set{}
			got := s.Add(Decode(n), Origin{File: "f.yaml", Index: 3, Item: -1, Node: n})
			if !reflect.DeepEqual(got, diag.List{tc.want}) {
				t.Errorf("Add() =\n%#v\nwant\n%#v", got, diag.List{tc.want})
			}
			if len(s.Rules)+len(s.Features)+len(s.Groups)+len(s.Nodes) != 0 {
				t.Errorf("an unknown NFD object was added to the set: %+v", s)
			}
		})
	}
}

func TestAddFilesObjectsByKindAndIgnoresOthers(t *testing.T) {
	s := &Set{}
	for i, text := range []string{
		"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: f}\n",
		"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureGroup\nmetadata: {name: g}\n",
		"apiVersion: v1\nkind: Node\nmetadata: {name: n}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n",
	} {
		if ds := s.Add(Decode(doc(t, text)), Origin{Index: i, Item: i}); len(ds) != 0 {
			t.Errorf("document %d: Add() = %v, want nothing", i, ds)
		}
	}
	if len(s.Features) != 1 || len(s.Groups) != 1 || len(s.Nodes) != 1 || len(s.Rules) != 0 {
		t.Fatalf("set: %d features, %d groups, %d nodes, %d rules; want 1 1 1 0", len(s.Features), len(s.Groups), len(s.Nodes), len(s.Rules))
	}
	if s.Features[0].Origin.Item != 0 || s.Groups[0].Origin.Item != 1 || s.Nodes[0].Origin.Item != 2 {
		t.Errorf("origins not kept: %+v %+v %+v", s.Features[0].Origin, s.Groups[0].Origin, s.Nodes[0].Origin)
	}
}

// summary is what a test checks of a Set: kind/name@file#index:line.
func summary(s *Set) []string {
	var out []string
	add := func(kind, name string, o Origin) {
		line := 0
		if o.Node != nil {
			line = o.Node.Line
		}
		out = append(out, kind+"/"+name+"@"+o.File+"#"+strconv.Itoa(o.Index)+":"+strconv.Itoa(line))
	}
	for _, o := range s.Features {
		add("NodeFeature", o.Obj.Metadata.Name, o.Origin)
	}
	for _, o := range s.Rules {
		add("NodeFeatureRule", o.Obj.Metadata.Name, o.Origin)
	}
	for _, o := range s.Groups {
		add("NodeFeatureGroup", o.Obj.Metadata.Name, o.Origin)
	}
	for _, o := range s.Nodes {
		add("Node", o.Obj.Name, o.Origin)
	}
	return out
}

func messages(ds diag.List) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Text())
	}
	return out
}

func TestReadingTextMultiDocumentJSONAndLists(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		note  bool
		set   []string
		diags []string
	}{
		{
			name: "multi-document-yaml-skips-empty-documents",
			data: `---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: r1}
---
---
# only a comment
---
apiVersion: v1
kind: Node
metadata: {name: n1}
...
---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata: {name: f1, namespace: nfd}
`,
			set: []string{"NodeFeature/f1@in.yaml#4:14", "NodeFeatureRule/r1@in.yaml#0:2", "Node/n1@in.yaml#3:9"},
		},
		{
			name: "json-document",
			data: `{"apiVersion": "nfd.k8s-sigs.io/v1alpha1", "kind": "NodeFeatureRule",
 "metadata": {"name": "j"}, "spec": {"rules": [{"name": "a", "labels": {"x": "y"}}]}}`,
			set: []string{"NodeFeatureRule/j@in.yaml#0:1"},
		},
		{
			name: "v1-list-expands-into-items",
			data: `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: a}
- apiVersion: v1
  kind: Node
  metadata: {name: b}
- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata: {name: a, namespace: nfd}
`,
			set: []string{"NodeFeature/a@in.yaml#0:10", "Node/a@in.yaml#0:4", "Node/b@in.yaml#0:7"},
		},
		{
			name: "typed-list-expands-too",
			data: `{"apiVersion": "v1", "kind": "NodeList", "items": [
  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "x"}}]}`,
			set: []string{"Node/x@in.yaml#0:2"},
		},
		{
			name:  "list-of-another-group-is-not-expanded",
			data:  "apiVersion: example.com/v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: hidden}}\n",
			note:  true,
			diags: []string{`in.yaml:2:1: info: List kind: example.com/v1 List is not an NFD kind: skipped [NFD023]`},
		},
		{
			name: "notes-for-skipped-documents-and-list-items",
			data: `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm}
- just a scalar
`,
			note: true,
			diags: []string{
				`in.yaml:5:3: info: ConfigMap/cm kind: v1 ConfigMap "cm" is not an NFD kind: skipped [NFD023]`,
				"in.yaml:7:3: error: document is not a YAML mapping (an object with apiVersion and kind) [NFD001]",
			},
		},
		{
			name:  "no-notes-without-note-but-a-non-object-is-still-an-error",
			data:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n---\n[1, 2]\n",
			diags: []string{"in.yaml:5:1: error: document is not a YAML mapping (an object with apiVersion and kind) [NFD001]"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Set{}
			ds := readText(s, []byte(tc.data), "in.yaml", tc.note)
			if got := summary(s); !reflect.DeepEqual(got, tc.set) {
				t.Errorf("set = %v, want %v", got, tc.set)
			}
			if got := messages(ds); !reflect.DeepEqual(got, tc.diags) {
				t.Errorf("diagnostics =\n%q\nwant\n%q", got, tc.diags)
			}
		})
	}
}

func TestReadingTextScannerErrorKeepsEarlierDocumentsAndNamesTheLine(t *testing.T) {
	tests := []struct {
		name string
		data string
		set  []string
		diag diag.Diagnostic
	}{
		{
			name: "tab-in-third-document",
			data: "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n---\nkey: v\nother: a: b\n---\napiVersion: v1\nkind: Node\nmetadata: {name: never}\n",
			set:  []string{"Node/a@f.yaml#0:1", "Node/b@f.yaml#1:5"},
			diag: diag.Diagnostic{Severity: diag.Error, Check: "yaml", Pos: diag.Position{File: "f.yaml", Index: 2, Line: 10, Column: 1},
				Message: "YAML does not parse: mapping values are not allowed in this context; the rest of the file is not checked"},
		},
		{
			name: "bad-indentation",
			data: "apiVersion: v1\nkind: Node\n metadata: x\n",
			diag: diag.Diagnostic{Severity: diag.Error, Check: "yaml", Pos: diag.Position{File: "f.yaml", Index: 0, Line: 3, Column: 1},
				Message: "YAML does not parse: mapping values are not allowed in this context; the rest of the file is not checked"},
		},
		{
			name: "tab-indentation",
			data: "apiVersion: v1\nkind: Node\nmetadata:\n\tname: x\n",
			diag: diag.Diagnostic{Severity: diag.Error, Check: "yaml", Pos: diag.Position{File: "f.yaml", Index: 0, Line: 4, Column: 1},
				Message: "YAML does not parse: found character that cannot start any token; the rest of the file is not checked"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Set{}
			ds := readText(s, []byte(tc.data), "f.yaml", false)
			if got := summary(s); !reflect.DeepEqual(got, tc.set) {
				t.Errorf("set = %v, want %v", got, tc.set)
			}
			if !reflect.DeepEqual(ds, diag.List{tc.diag}) {
				t.Errorf("diagnostics =\n%#v\nwant\n%#v", ds, diag.List{tc.diag})
			}
		})
	}
}

func TestDocumentsExpandsOnlyV1Lists(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want int
	}{
		{"list", "apiVersion: v1\nkind: List\nitems: [{a: 1}, {b: 2}, {c: 3}]\n", 3},
		{"empty-list", "apiVersion: v1\nkind: List\nitems: []\n", 0},
		{"typed-list", "apiVersion: v1\nkind: NodeList\nitems: [{a: 1}]\n", 1},
		{"list-without-items-is-itself", "apiVersion: v1\nkind: List\n", 1},
		{"items-not-a-sequence-is-itself", "apiVersion: v1\nkind: List\nitems: {a: 1}\n", 1},
		{"not-v1-is-itself", "apiVersion: apps/v1\nkind: List\nitems: [{a: 1}, {b: 2}]\n", 1},
		{"plain-object-is-itself", "apiVersion: v1\nkind: Node\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := doc(t, tc.yaml)
			got := Documents(n)
			if len(got) != tc.want {
				t.Fatalf("Documents() returned %d nodes, want %d", len(got), tc.want)
			}
			if tc.want == 1 && strings.HasSuffix(tc.name, "is-itself") && got[0] != n {
				t.Errorf("Documents() did not return the document itself")
			}
		})
	}
}

func nodeDoc(name string) string {
	return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + "}\n"
}

func TestSetOriginFindsTheObjectInUse(t *testing.T) {
	s := &Set{}
	readText(s, []byte(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: r}
---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata: {name: r, namespace: nfd}
---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: r}
`), "a.yaml", false)
	readText(s, []byte(nodeDoc("r")), "b.yaml", false)
	tests := []struct {
		name  string
		ref   diag.ObjectRef
		ok    bool
		file  string
		index int
	}{
		{"last-rule-of-a-name-wins", diag.ObjectRef{Kind: "NodeFeatureRule", Name: "r"}, true, "a.yaml", 2},
		{"apiversion-ignored", diag.ObjectRef{APIVersion: api.APIVersion, Kind: "NodeFeatureRule", Name: "r"}, true, "a.yaml", 2},
		{"feature-needs-its-namespace", diag.ObjectRef{Kind: "NodeFeature", Namespace: "nfd", Name: "r"}, true, "a.yaml", 1},
		{"feature-without-namespace-is-not-found", diag.ObjectRef{Kind: "NodeFeature", Name: "r"}, false, "", 0},
		{"node", diag.ObjectRef{Kind: "Node", Name: "r"}, true, "b.yaml", 0},
		{"unknown", diag.ObjectRef{Kind: "NodeFeatureGroup", Name: "r"}, false, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, ok := s.Origin(tc.ref)
			if ok != tc.ok || o.File != tc.file || o.Index != tc.index {
				t.Errorf("Origin() = %q#%d ok=%v, want %q#%d ok=%v", o.File, o.Index, ok, tc.file, tc.index, tc.ok)
			}
			if !ok && o.Item != -1 {
				t.Errorf("a missing origin has Item %d, want -1", o.Item)
			}
		})
	}
}

func TestSetOriginSeesObjectsAddedAfterTheFirstLookup(t *testing.T) {
	s := &Set{}
	if _, ok := s.Origin(NodeRef("late")); ok {
		t.Fatal("found a node in an empty set")
	}
	readText(s, []byte(nodeDoc("late")), "late.yaml", false)
	if o, ok := s.Origin(NodeRef("late")); !ok || o.File != "late.yaml" {
		t.Errorf("Origin after Add = %+v %v, want late.yaml", o, ok)
	}
}

func TestPlaceFillsOnlyMissingPositions(t *testing.T) {
	s := &Set{}
	readText(s, []byte(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: r
spec:
  rules:
  - name: a
    labels:
      x: "1"
  - name: b
    labels:
      y: "2"
`), "r.yaml", false)
	ref := RuleRef(s.Rules[0].Obj)
	keep := diag.Position{File: "elsewhere.yaml", Line: 99, Column: 9}
	l := diag.List{
		{Object: ref, Field: "spec.rules[1].labels.y"},
		{Object: ref},
		{Object: ref, Field: "spec.rules[7].name"},
		{Object: ref, Field: "spec.rules[0]", Pos: keep},
		{Object: diag.ObjectRef{Kind: "NodeFeatureRule", Name: "missing"}, Field: "spec"},
	}
	s.Place(l)
	want := []diag.Position{
		{File: "r.yaml", Line: 12, Column: 10},
		{File: "r.yaml", Line: 1, Column: 1},
		{File: "r.yaml", Line: 7, Column: 3}, // the deepest node that exists: the rules list
		keep,
		{},
	}
	for i := range l {
		if l[i].Pos != want[i] {
			t.Errorf("diagnostic %d (%s): Pos = %+v, want %+v", i, l[i].Field, l[i].Pos, want[i])
		}
	}
}

func TestOriginPositionWithoutNodeHasFileAndIndexOnly(t *testing.T) {
	o := Origin{File: "f.yaml", Index: 4, Item: 2}
	if got, want := o.Position("spec.rules[0]", false), (diag.Position{File: "f.yaml", Index: 4}); got != want {
		t.Errorf("Position() = %+v, want %+v", got, want)
	}
}

func TestRefsLeaveAPIVersionEmpty(t *testing.T) {
	meta := api.ObjectMeta{Name: "n", Namespace: "ns"}
	tests := []struct {
		got, want diag.ObjectRef
	}{
		{FeatureRef(&api.NodeFeature{Metadata: meta}), diag.ObjectRef{Kind: "NodeFeature", Namespace: "ns", Name: "n"}},
		{RuleRef(&api.NodeFeatureRule{Metadata: meta}), diag.ObjectRef{Kind: "NodeFeatureRule", Namespace: "ns", Name: "n"}},
		{GroupRef(&api.NodeFeatureGroup{Metadata: meta}), diag.ObjectRef{Kind: "NodeFeatureGroup", Namespace: "ns", Name: "n"}},
		{NodeRef("n"), diag.ObjectRef{Kind: "Node", Name: "n"}},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("ref = %+v, want %+v", tc.got, tc.want)
		}
	}
}

func TestOtherNoteDescribesSkippedDocuments(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string
	}{
		{"kind-and-version", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n", `f:2:1: info: Secret/s kind: v1 Secret "s" is not an NFD kind: skipped [NFD023]`},
		{"no-apiversion-no-kind", "metadata: {name: s}\n", `f:1:1: info: /s kind: document without apiVersion and kind "s" is not an NFD kind: skipped [NFD023]`},
		{"not-a-mapping", "[a]\n", "f:1:1: error: document is not a YAML mapping (an object with apiVersion and kind) [NFD001]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := doc(t, tc.yaml)
			got := OtherNote(Decode(n), Origin{File: "f", Item: -1, Node: n})
			if got.Text() != tc.want {
				t.Errorf("OtherNote() =\n%s\nwant\n%s", got.Text(), tc.want)
			}
		})
	}
}

// yaml.v3 reports parser errors (as opposed to scanner errors) with the
// 0-based line of the construct being parsed, so the line in its message
// is one before the offending line; syntaxError takes it as 1-based.
func TestReadingTextParserErrorNamesTheOffendingLine(t *testing.T) {
	tests := []struct {
		name string
		data string
		line int
	}{
		{"sequence-entry-in-a-mapping", "a: 1\nb: 2\n- c\n", 3},
		{"unclosed-flow-sequence", "a: 1\nb: 2\nc: [x\nd: 1\n", 3},
		{"unclosed-json-object-in-second-document", "a: 1\n---\n{\"kind\": \"Node\",\n \"x\": 1\n", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds := readText(&Set{}, []byte(tc.data), "f.yaml", false)
			if len(ds) != 1 || ds[0].Pos.Line != tc.line {
				t.Errorf("diagnostics %q, want one at line %d", messages(ds), tc.line)
			}
		})
	}
}
