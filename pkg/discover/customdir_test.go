package discover

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadCustomDirWalksLikeNfdWorker(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, customDirRel)
	rule := func(name string) string { return "- name: " + name + "\n  labels: {" + name + ": \"true\"}\n" }
	mustWrite(t, filepath.Join(dir, "a.yaml"), rule("top"))
	mustWrite(t, filepath.Join(dir, ".hidden.yaml"), rule("dot-file"))
	mustWrite(t, filepath.Join(dir, ".dir/b.yaml"), rule("dot-dir"))
	mustWrite(t, filepath.Join(dir, "sub/c.yaml"), rule("first-level"))
	mustWrite(t, filepath.Join(dir, "sub/deeper/d.yaml"), rule("second-level"))
	mustWrite(t, filepath.Join(dir, "sub/.e.yaml"), rule("dot-file-in-sub"))
	mustWrite(t, filepath.Join(dir, "z-dup.yaml"), "- name: dup\n  name: again\n")
	mustWrite(t, filepath.Join(dir, "z-map.yaml"), "name: not-a-list\n")
	mustLink(t, "sub", filepath.Join(dir, "y-link"))
	c := newCollector("custom", false)
	var names []string
	for _, r := range readCustomDir(newHost(root), "nfd-worker v0.19", c) {
		names = append(names, r.Name)
	}
	if diff := cmp.Diff([]string{"dot-dir", "top", "first-level"}, names); diff != "" {
		t.Errorf("rules read (-want +got):\n%s", diff)
	}
	var got []string
	for _, w := range c.warnings {
		got = append(got, strings.ReplaceAll(w.Message, root, "<root>"))
	}
	want := []string{
		`could not read file etc/kubernetes/node-feature-discovery/custom.d/y-link: reading "<root>/etc/kubernetes/node-feature-discovery/custom.d/sub": not a regular file`,
		`could not parse file etc/kubernetes/node-feature-discovery/custom.d/z-dup.yaml, skipping it: error converting YAML to JSON: yaml: unmarshal errors: line 2: key "name" already set in map`,
		`could not parse file etc/kubernetes/node-feature-discovery/custom.d/z-map.yaml, skipping it: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal object into Go value of type []discover.ruleConfig`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
