package cli

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// renderFiles writes files into a fresh directory, renders it with the
// real binary, which must exit 0, and returns the output's items and text.
func renderFiles(t *testing.T, files map[string]string) ([]yaml.Node, string) {
	t.Helper()
	bin := buildListTestBinary(t)
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, files)
	run := runBinary(t, bin, nil, "render", dir)
	if run.code != 0 {
		t.Fatalf("render: exit %d\n%s", run.code, run.stderr)
	}
	var list struct {
		Items []yaml.Node `yaml:"items"`
	}
	if err := yaml.Unmarshal([]byte(run.stdout), &list); err != nil {
		t.Fatalf("stdout is not a ResourceList: %v\n%s", err, run.stdout)
	}
	return list.Items, run.stdout
}

// TestFlowStyleFilesAreWrittenBackWithTheirMeaning is issue 34's fuzz
// find: a file that opens with "{" but is YAML in flow style ("{0}:", a
// mapping used as a key) made render fail writing the list as JSON, with
// nothing on stdout and no file named. Such a package is written as YAML,
// and nulls written as nothing in flow style ({a: }) stay nulls.
func TestFlowStyleFilesAreWrittenBackWithTheirMeaning(t *testing.T) {
	items, out := renderFiles(t, map[string]string{
		"key.yaml": "{0}:",
		"cm.yaml":  `{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}, data: {a: , b: "x"}}`,
	})
	var data map[string]any
	for i := range items {
		var cm struct {
			Kind string         `yaml:"kind"`
			Data map[string]any `yaml:"data"`
		}
		if items[i].Decode(&cm) == nil && cm.Kind == "ConfigMap" {
			data = cm.Data
		}
	}
	if v, ok := data["a"]; !ok || v != nil {
		t.Errorf("the ConfigMap's data.a is %#v (present: %v), want null as the file has it:\n%s", v, ok, out)
	}
	if len(items) != 2 {
		t.Errorf("%d items, want the ConfigMap and key.yaml's document:\n%s", len(items), out)
	}
}
