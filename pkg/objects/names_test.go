package objects

import (
	"fmt"
	"strings"
	"testing"
)

// TestObjectsWithoutAValidNameAreRejectedWithAnError covers issue 17
// point 4: an object nfd-fn reads must have metadata with a name the API
// server accepts before the name becomes a file path or a Nova provider
// name; anything else is an error at the field, and the object is not
// used.
func TestObjectsWithoutAValidNameAreRejectedWithAnError(t *testing.T) {
	rule := func(md string) string {
		return "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\n" + md + "spec: {rules: []}\n"
	}
	node := func(md string) string { return "apiVersion: v1\nkind: Node\n" + md }
	long := strings.Repeat("a", 300)
	tests := []struct {
		name, yaml, field, keyword string
	}{
		{"rule-without-metadata", rule(""), "metadata", "metadata is missing"},
		{"rule-with-null-metadata", rule("metadata: null\n"), "metadata", "metadata is missing"},
		{"rule-without-a-name", rule("metadata: {labels: {a: b}}\n"), "metadata.name", "metadata.name is missing"},
		{"rule-with-an-empty-name", rule("metadata: {name: ''}\n"), "metadata.name", "metadata.name is missing"},
		{"rule-with-a-path-for-a-name", rule("metadata: {name: ../../../../tmp/x}\n"), "metadata.name", `"../../../../tmp/x" is not a valid NodeFeatureRule name`},
		{"rule-with-a-newline-in-its-name", rule("metadata: {name: \"a\\nb\"}\n"), "metadata.name", `"a\nb" is not a valid`},
		{"rule-with-a-nul-in-its-name", rule("metadata: {name: \"a\\0b\"}\n"), "metadata.name", `"a\x00b" is not a valid`},
		{"rule-with-a-300-character-name", rule("metadata: {name: " + long + "}\n"), "metadata.name", "(300 bytes)"},
		{"rule-with-an-invalid-namespace", rule("metadata: {name: r, namespace: ../ns}\n"), "metadata.namespace", `"../ns" is not a valid namespace name`},
		{"node-without-metadata", node(""), "metadata", "metadata is missing"},
		{"node-with-scalar-metadata", node("metadata: worker-1\n"), "metadata", "metadata must be a mapping"},
		{"node-with-a-list-for-a-name", node("metadata: {name: [a]}\n"), "metadata.name", "must be a string"},
		{"node-with-a-bidi-override", node("metadata: {name: \"a\\u202eb\"}\n"), "metadata.name", `"a\u202eb"`},
		{"feature-with-a-slash", "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: a/b, namespace: nfd}\n", "metadata.name", "is not a valid NodeFeature name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Set{}
			ds := s.Add(Decode(doc(t, tc.yaml)), Origin{File: "in.yaml", Item: -1})
			if len(ds) != 1 || ds[0].Severity != "error" || ds[0].Check != "object-name" || ds[0].Field != tc.field || !strings.Contains(ds[0].Message, tc.keyword) {
				t.Fatalf("Add() = %q, want one object-name error at %s saying %q", ds.Error(), tc.field, tc.keyword)
			}
			if used := usedObjects(s); used != 0 {
				t.Errorf("%d objects with an invalid name are used", used)
			}
		})
	}
}

func TestObjectsWithValidNamesAreUsed(t *testing.T) {
	for _, text := range []string{
		"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: my.rules-1}\n",
		"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: worker-1, namespace: node-feature-discovery}\n",
		"apiVersion: v1\nkind: Node\nmetadata: {name: ip-10-0-0-1.ec2.internal}\n",
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system}\n",
		"apiVersion: v1\nkind: Node\nmetadata: {name: " + strings.Repeat("a", 253) + "}\n",
	} {
		s := &Set{}
		if ds := s.Add(Decode(doc(t, text)), Origin{Item: -1}); len(ds) != 0 {
			t.Errorf("Add(%.60q) = %v, want nothing", text, ds)
		}
		if usedObjects(s) != 1 {
			t.Errorf("Add(%.60q) did not file the object", text)
		}
	}
}

func TestScalarItemsAreErrorsNamingTheItem(t *testing.T) {
	for _, text := range []string{"just a scalar\n", "42\n", "[a, b]\n"} {
		s := &Set{}
		ds := s.Add(Decode(doc(t, text)), Origin{Item: 3})
		if len(ds) != 1 || ds[0].Severity != "error" || !strings.Contains(ds[0].Message, "items[3]") {
			t.Errorf("Add(%q) = %v, want one error naming items[3]", text, ds)
		}
	}
}

func TestShowNameCutsLongNames(t *testing.T) {
	got := ShowName(strings.Repeat("x", 9<<20))
	if len(got) > 100 || !strings.Contains(got, fmt.Sprintf("(%d bytes)", 9<<20)) {
		t.Errorf("ShowName of a 9 MiB name = %.120q", got)
	}
	if got := ShowName("a\x1bb"); got != `"a\x1bb"` {
		t.Errorf("ShowName(a ESC b) = %s", got)
	}
}

func usedObjects(s *Set) int {
	n := len(s.Namespaces)
	for i := range s.Rules {
		n += b2i(s.Rules[i].Used())
	}
	for i := range s.Features {
		n += b2i(s.Features[i].Used())
	}
	for i := range s.Groups {
		n += b2i(s.Groups[i].Used())
	}
	for i := range s.Nodes {
		n += b2i(s.Nodes[i].Used())
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSafeButInvalidNamesAreErrorsAndStillUsed checks names the API server
// refuses but that are safe as file names and text (upper case, a dot in
// a namespace): an object-name error, and the object is used, as
// nfd-master's code uses what it is given.
func TestSafeButInvalidNamesAreErrorsAndStillUsed(t *testing.T) {
	for _, doc := range []string{
		"apiVersion: v1\nkind: Node\nmetadata: {name: Worker-1}\n",
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: a.b}\n",
	} {
		s := &Set{}
		ds := readText(s, []byte(doc), "f.yaml", false)
		if len(ds) != 1 || ds[0].Check != "object-name" || ds[0].Severity != "error" || !strings.Contains(ds[0].Message, "no cluster can hold it") {
			t.Errorf("%q: diagnostics %v", doc, ds)
		}
		if len(s.Nodes)+len(s.Namespaces) != 1 || (len(s.Nodes) == 1 && s.Nodes[0].Rejected) {
			t.Errorf("%q: the object is not used", doc)
		}
	}
}
