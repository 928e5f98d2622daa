package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestHostileLeftoversLeaveAValidResourceList is issue 26 point 8: items
// that are not objects (scalars, lists, mappings under a tag of their
// own), on stdin, in JSON or in files, are errors naming them and are
// left out, so that what the real binary writes is still a ResourceList
// every reader takes: a mapping whose items are all untagged mappings.
func TestHostileLeftoversLeaveAValidResourceList(t *testing.T) {
	bin := buildListTestBinary(t)
	dir := t.TempDir()
	const object = "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: kept\n"
	const head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
	tests := []struct {
		name, input string
		file        bool
		want        []string
	}{
		{"scalar-items", head + "- just a string\n- 42\n- ~\n" + object, false, []string{"items[0]", "items[1]", "items[2]"}},
		{"tagged-items", head + "- !!str tagged\n- !custom {a: 1}\n- !custom\n  apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: n\n" + object,
			false, []string{"items[0]", "items[1]", "items[2]"}},
		{"list-item", head + "- [a, b]\n" + object, false, []string{"items[0]"}},
		{"json-scalar-items", `{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": ["text", 7, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept"}}]}`,
			false, []string{"items[0]", "items[1]"}},
		{"tagged-documents-in-a-file", "--- !custom\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: n\n---\napiVersion: v1\nkind: List\nitems:\n- 42\n- !custom {a: 1}\n" + object,
			true, []string{"in.yaml:1:", "in.yaml:10:", "in.yaml:11:"}},
		{"tagged-items-in-a-list-file", head + "- !custom {a: 1}\n" + object, true, []string{"in.yaml: error: items[0]: document is not a YAML mapping"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got binRun
			if tt.file {
				path := filepath.Join(dir, tt.name, "in.yaml")
				mustWrite(t, path, tt.input)
				got = runBinary(t, bin, nil, "render", path)
			} else {
				got = runBinary(t, bin, []byte(tt.input))
			}
			if got.code != 1 {
				t.Errorf("exit %d, want 1", got.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(got.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, got.stderr)
				}
			}
			items := listItems(t, got.stdout)
			if len(items) != 1 || items[0].Kind != yaml.MappingNode || items[0].ShortTag() != "!!map" {
				t.Errorf("want the one object kept, an untagged mapping; output:\n%s", got.stdout)
			}
		})
	}
}

// TestDiscoverDoesNotEchoAFileThatIsNotAWorkerConfig is issue 26 point
// 8's other leftover: discover --config on the wrong file (shaped like
// /etc/shadow) says so in one warning and prints none of its lines.
func TestDiscoverDoesNotEchoAFileThatIsNotAWorkerConfig(t *testing.T) {
	bin := buildListTestBinary(t)
	dir := t.TempDir()
	shadow := filepath.Join(dir, "shadow")
	mustWrite(t, shadow, "root:$6$s4lt$S3CR3T:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n")
	got := runBinary(t, bin, nil, "discover", "--config", shadow, "--host-root", dir, "--node-name", "n")
	if strings.Contains(got.stdout+got.stderr, "S3CR3T") || strings.Contains(got.stdout+got.stderr, "daemon") {
		t.Errorf("the file's lines are echoed:\n%s%s", got.stdout, got.stderr)
	}
	if !strings.Contains(got.stderr, "not an nfd-worker configuration") {
		t.Errorf("no warning that the file is not a worker configuration:\n%s", got.stderr)
	}
}

// listItems parses a ResourceList (YAML or JSON) and returns its items,
// failing unless the document is a mapping with a list of items.
func listItems(t *testing.T, out string) []*yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(out), &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		t.Fatalf("output is not one mapping (%v):\n%s", err, out)
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "items" {
			if root.Content[i+1].Kind != yaml.SequenceNode {
				t.Fatalf("items is not a list:\n%s", out)
			}
			return root.Content[i+1].Content
		}
	}
	t.Fatalf("output has no items:\n%s", out)
	return nil
}
