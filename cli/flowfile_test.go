package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestFlowStyleFilesAreWrittenBackWithTheirMeaning is issue 34's fuzz
// find: a file that opens with "{" but is YAML in flow style ("{0}:", a
// mapping used as a key) made render fail writing the list as JSON, with
// nothing on stdout and no file named. Such a package is written as YAML,
// and nulls written as nothing in flow style ({a: }) stay nulls.
func TestFlowStyleFilesAreWrittenBackWithTheirMeaning(t *testing.T) {
	bin := buildListTestBinary(t)
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("key.yaml", "{0}:")
	write("cm.yaml", `{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}, data: {a: , b: "x"}}`)
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
	var cm struct {
		Kind string         `yaml:"kind"`
		Data map[string]any `yaml:"data"`
	}
	for i := range list.Items {
		if list.Items[i].Decode(&cm) == nil && cm.Kind == "ConfigMap" {
			break
		}
	}
	if v, ok := cm.Data["a"]; !ok || v != nil {
		t.Errorf("the ConfigMap's data.a is %#v (present: %v), want null as the file has it:\n%s", v, ok, run.stdout)
	}
	if !strings.Contains(run.stdout, "key.yaml") {
		t.Errorf("the document of key.yaml is not passed through:\n%s", run.stdout)
	}
}
