package krm

import (
	"bytes"
	"strings"
	"testing"
)

// TestEachItemStateHasItsWritePath reads lists of every form, puts items
// in each state (raw, tree, made) and checks the write path output picks
// for it and what the list writes.
func TestEachItemStateHasItsWritePath(t *testing.T) {
	block := listHeader + "items:\n  - {a: 1}   # raw, kept\n  - b: 2   # changed\n  - c: 3   # made\n"
	tests := []struct {
		name  string
		read  func(t *testing.T) *ResourceList
		edit  func(rl *ResourceList)
		want  []State
		paths []output
		out   []string
	}{{
		name: "block-list-raw-tree-made",
		read: func(t *testing.T) *ResourceList { return mustRead(t, block) },
		edit: func(rl *ResourceList) {
			SetField(rl.Items[1].Tree(), "b", StrNode("changed"))
			rl.Items[1].Changed = true
			rl.SetMaker(&ItemMaker{Items: []int{2}, Make: func(int) ([]byte, any, error) { return []byte("  - c: made\n"), nil, nil }})
			rl.Append(MapNode(map[string]string{"d": "new"}))
		},
		want:  []State{StateRaw, StateTree, StateMade, StateTree},
		paths: []output{outAsIs, outEncoded, outMade, outEncoded},
		out:   []string{"  - {a: 1}   # raw, kept\n", "  - b: changed\n", "  - c: made\n", "  - d: new\n"},
	}, {
		name: "made-item-its-maker-leaves-as-it-was",
		read: func(t *testing.T) *ResourceList { return mustRead(t, block) },
		edit: func(rl *ResourceList) {
			rl.SetMaker(&ItemMaker{Items: []int{2}, Make: func(int) ([]byte, any, error) { return nil, nil, nil }})
		},
		want:  []State{StateRaw, StateRaw, StateMade},
		paths: []output{outAsIs, outAsIs, outMade},
		out:   []string{"  - b: 2   # changed\n", "  - c: 3   # made\n"},
	}, {
		name: "list-parsed-whole-is-trees",
		read: func(t *testing.T) *ResourceList {
			return mustRead(t, `{apiVersion: config.kubernetes.io/v1, kind: ResourceList, items: [{a: 1}]}`)
		},
		edit:  func(*ResourceList) {},
		want:  []State{StateTree},
		paths: []output{outElement},
		out:   []string{"  - {a: 1}\n"},
	}, {
		name: "json-list-raw-and-tree",
		read: func(t *testing.T) *ResourceList {
			return mustRead(t, `{"apiVersion": "v1", "kind": "List", "items": [{"a": 1}, {"b": 2}]}`)
		},
		edit: func(rl *ResourceList) {
			SetField(rl.Items[1].Tree(), "b", StrNode("changed"))
			rl.Items[1].Changed = true
		},
		want:  []State{StateRaw, StateTree},
		paths: []output{outJSON, outJSON},
		out:   []string{`"a": 1`, `"b": "changed"`},
	}, {
		name: "object-read-from-a-file-is-placed",
		read: func(t *testing.T) *ResourceList {
			rl, err := ReadFiles([]File{{Name: "cm.yaml", Data: []byte("a: 1 # kept\n")}}, nil, ReadOptions{}, func(int) ([]Doc, error) {
				t.Fatal("the file was parsed whole")
				return nil, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			return rl
		},
		edit:  func(*ResourceList) {},
		want:  []State{StateRaw},
		paths: []output{outPlaced},
		out:   []string{"  - a: 1 # kept\n", "config.kubernetes.io/path: cm.yaml"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rl := tt.read(t)
			tt.edit(rl)
			if len(rl.Items) != len(tt.want) {
				t.Fatalf("%d items, want %d", len(rl.Items), len(tt.want))
			}
			for i, it := range rl.Items {
				if got := it.State(); got != tt.want[i] {
					t.Errorf("item %d is %s, want %s", i, got, tt.want[i])
				}
				if got := rl.output(it, it.State()); got != tt.paths[i] {
					t.Errorf("item %d (%s) is written by path %d, want %d", i, it.State(), got, tt.paths[i])
				}
			}
			var out bytes.Buffer
			if err := writeList(rl, &out, nil); err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
		})
	}
}

func mustRead(t *testing.T, in string) *ResourceList {
	t.Helper()
	rl, err := Read([]byte(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return rl
}
