package krm

import (
	"testing"
)

func TestSyncMapTextEditsOnlyTheMap(t *testing.T) {
	raw := "- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      a: \"1\"\n      b: x\n    name: n\n  status:\n    images:\n    - names: [a]\n"
	tests := []struct {
		name, parent, key string
		want              map[string]string
		out               string
		changed           bool
	}{
		{"kept", "metadata", "labels", map[string]string{"a": "1", "b": "x"}, raw, false},
		{"added-sorted-and-changed", "metadata", "labels", map[string]string{"a": "2", "b": "x", "d": "true", "c": "yes"},
			"- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      a: \"2\"\n      b: x\n      c: \"yes\"\n      d: \"true\"\n    name: n\n  status:\n    images:\n    - names: [a]\n", true},
		{"removed", "metadata", "labels", map[string]string{"b": "x"},
			"- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      b: x\n    name: n\n  status:\n    images:\n    - names: [a]\n", true},
		{"new-map-at-the-end-of-its-parent", "metadata", "annotations", map[string]string{"k": "v"},
			"- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      a: \"1\"\n      b: x\n    name: n\n    annotations:\n      k: v\n  status:\n    images:\n    - names: [a]\n", true},
		{"absent-and-empty", "status", "capacity", nil, raw, false},
	}
	last := "kind: Node\nmetadata:\n  labels:\n    a: b"
	if out, _, ok := SyncMapText([]byte(last), true, "metadata", "labels", map[string]string{"a": "b", "c": "d"}); !ok || string(out) != last+"\n    c: d\n" {
		t.Errorf("a map on the last line, without a break: ok=%v\n%s", ok, out)
	}
	for _, tt := range tests {
		out, changed, ok := SyncMapText([]byte(raw), false, tt.parent, tt.key, tt.want)
		if !ok || changed != tt.changed || string(out) != tt.out {
			t.Errorf("%s: ok=%v changed=%v\n%s\nwant\n%s", tt.name, ok, changed, out, tt.out)
		}
	}
}

func TestSyncMapTextLeavesToTheTreeWhatItCannotBeSureOf(t *testing.T) {
	for name, raw := range map[string]string{
		"flow-map":       "kind: Node\nmetadata:\n  labels: {a: b}\n",
		"comment-inside": "kind: Node\nmetadata:\n  labels:\n    # why\n    a: b\n",
		"multi-line":     "kind: Node\nmetadata:\n  labels:\n    a: b\n      c\n",
		"block-scalar":   "kind: Node\nmetadata:\n  labels:\n    a: |\n      b\n",
		"no-parent":      "kind: Node\nspec: {}\n",
		"emptied":        "kind: Node\nmetadata:\n  labels:\n    a: b\n",
	} {
		if name == "emptied" {
			if _, _, ok := SyncMapText([]byte(raw), true, "metadata", "labels", map[string]string{"a": "b c"}); ok {
				t.Error("a value with a space, which yaml.v3 may fold, was written in text")
			}
		}
		if out, _, ok := SyncMapText([]byte(raw), true, "metadata", "labels", map[string]string{}); ok && name != "no-parent" {
			t.Errorf("%s: edited in text:\n%s", name, out)
		}
		if name == "no-parent" {
			if _, _, ok := SyncMapText([]byte(raw), true, "metadata", "labels", map[string]string{"a": "b"}); ok {
				t.Errorf("%s: a missing parent was made in text", name)
			}
		}
	}
}

// FuzzSyncMapText is the differential test of SyncMapText against
// SyncStringMap on the parsed tree: whenever the text edit is made, the
// text must read as the tree edit (values, order and styles).
func FuzzSyncMapText(f *testing.F) {
	f.Add([]byte("kind: Node\nmetadata:\n  labels:\n    a: \"1\"\n    b: x\n  name: n\nstatus:\n  capacity:\n    cpu: \"8\"\n"))
	f.Add([]byte("- kind: Node\n  metadata:\n    name: n\n  status: {}\n"))
	f.Add([]byte("kind: Node\nmetadata:\n  annotations:\n    x/y: \"true\"\n"))
	wants := []map[string]string{
		{"a": "1", "c": "true", "x/y": "2"},
		{"b": "x"},
		{},
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		doc := len(raw) == 0 || raw[0] != '-'
		it := &Item{Raw: raw, doc: doc}
		for _, path := range [][2]string{{"metadata", "labels"}, {"metadata", "annotations"}, {"status", "capacity"}} {
			for _, want := range wants {
				out, changed, ok := SyncMapText(raw, doc, path[0], path[1], want)
				if !ok {
					continue
				}
				tree, err := it.ParseTree()
				if err != nil || checkTree(tree, Limits{}.withDefaults()) != nil {
					return // not an object the render would edit
				}
				parent := MapAt(tree, path[0])
				if parent == nil {
					t.Fatalf("%s.%s: edited in text, but the object has no %s mapping\n%q", path[0], path[1], path[0], raw)
				}
				treeChanged := false
				if MapAt(parent, path[1]) != nil || len(want) > 0 {
					treeChanged = SyncStringMap(EnsureMap(parent, path[1]), want)
				}
				got, err := (&Item{Raw: out, doc: doc}).ParseTree()
				if err != nil {
					t.Fatalf("%s.%s: the edited text does not parse: %v\n%q\n->\n%s", path[0], path[1], err, raw, out)
				}
				if changed != treeChanged {
					t.Fatalf("%s.%s: changed=%v, the tree edit %v\n%q", path[0], path[1], changed, treeChanged, raw)
				}
				if a, b := encodeBare(t, got), encodeBare(t, tree); a != b {
					t.Fatalf("%s.%s: text edit reads\n%s\ntree edit\n%s\ninput %q", path[0], path[1], a, b, raw)
				}
			}
		}
	})
}
