package fn

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// TestRunFilesCapsOnlyFilesParsedWhole: a block YAML file over the cap on
// files parsed whole is cut and rendered; a JSON object too large to
// write back as YAML is left out with an error result at its file,
// saying why and what to do, and the run goes on.
func TestRunFilesCapsOnlyFilesParsedWhole(t *testing.T) {
	dir := t.TempDir()
	pad := strings.Repeat("# padding to take the file past the cap on files parsed whole\n", objects.MaxFileSize/60+1)
	block := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(block, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n"+pad+"data:\n  a: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, log bytes.Buffer
	code, err := RunFiles([]string{block}, nil, nil, &out, RunOptions{ErrorLog: &log})
	if err != nil || code != 0 {
		t.Fatalf("block YAML over %d bytes: exit %d, %v\n%s", objects.MaxFileSize, code, err, log.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("config.kubernetes.io/path: "+block)) || !bytes.Contains(out.Bytes(), []byte("name: big")) {
		t.Errorf("the big object is not in the output with its path")
	}

	jsonFile := filepath.Join(dir, "big.json")
	if err := os.WriteFile(jsonFile, []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big"}, "data": {"pad": "`+strings.Repeat("x", objects.MaxFileSize)+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	code, err = RunFiles([]string{jsonFile}, nil, nil, &out, RunOptions{})
	if code != 1 || err != nil {
		t.Errorf("JSON over the cap: exit %d, %v; want 1 and an error result", code, err)
	}
	list := testkit.Read(t, out.Bytes())
	if len(list.Items) != 0 || len(list.Results) != 1 || list.Results[0].File.Path != jsonFile ||
		!strings.Contains(list.Results[0].Message, "a JSON object of") || !strings.Contains(list.Results[0].Message, "nfd-fn render < FILE") {
		t.Errorf("JSON over the cap: items %d, results %+v", len(list.Items), list.Results)
	}
}

func TestRunFilesSumsUpManySkippedObjects(t *testing.T) {
	dir := t.TempDir()
	var docs strings.Builder
	for i := range 30 {
		fmt.Fprintf(&docs, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%d\n", i)
	}
	docs.WriteString("---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n")
	file := filepath.Join(dir, "many.yaml")
	if err := os.WriteFile(file, []byte(docs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := RunFiles([]string{file}, nil, nil, &out, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "is not an NFD kind: skipped"); n != 20 { // internal/inputs notes 20 one by one
		t.Errorf("%d objects noted one by one, want 20", n)
	}
	if !strings.Contains(out.String(), "and 11 more objects that are not NFD kinds, skipped and passed through unchanged: 10 v1 ConfigMap, 1 apps/v1 Deployment") {
		t.Errorf("no summary of the rest:\n%s", out.String())
	}
	var list struct {
		Items []struct {
			Kind string `yaml:"kind"`
		} `yaml:"items"`
	}
	if err := yaml.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 31 {
		t.Errorf("%d items in the output, want all 31", len(list.Items))
	}
}

// TestRunFilesNotesHelmTemplatesInsteadOfFailing: a repository that keeps
// a Helm chart beside its rules renders; the template, not YAML until
// Helm renders it, is one info result and no item.
func TestRunFilesNotesHelmTemplatesInsteadOfFailing(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "chart", "templates", "deploy.yaml")
	if err := os.MkdirAll(filepath.Dir(tmpl), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		tmpl:                            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-app\n  labels:\n    {{- include \"chart.labels\" . | nindent 4 }}\n",
		filepath.Join(dir, "rule.yaml"): "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: r\nspec:\n  rules:\n  - name: r\n    labels:\n      a: \"true\"\n    matchFeatures:\n    - feature: kernel.version\n      matchExpressions:\n        major: {op: Exists}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, log bytes.Buffer
	code, err := RunFiles([]string{dir}, nil, nil, &out, RunOptions{ErrorLog: &log})
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, log.String())
	}
	if !strings.Contains(out.String(), "check: template-file") || strings.Contains(out.String(), "kind: Deployment") {
		t.Errorf("the template is not noted, or is an item:\n%s", out.String())
	}
}

// TestRunFilesWithoutAFinalLineBreak: files whose last line has no break
// (as many editors save them) give a list in which every object is an
// item of its own, with its values as they were.
func TestRunFilesWithoutAFinalLineBreak(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: |\n    text",
		"b.yaml": "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n  data:\n    y: \"2\"",
		"c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if _, err := RunFiles([]string{dir}, nil, nil, &out, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []struct {
			Metadata struct {
				Name string `yaml:"name"`
			} `yaml:"metadata"`
			Data map[string]string `yaml:"data"`
		} `yaml:"items"`
	}
	if err := yaml.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("the output does not parse: %v\n%s", err, out.String())
	}
	var got []string
	for _, it := range list.Items {
		got = append(got, fmt.Sprintf("%s %v", it.Metadata.Name, it.Data))
	}
	if want := "a map[x:text] b map[y:2] c map[]"; strings.Join(got, " ") != want {
		t.Errorf("items %q, want %q\n%s", strings.Join(got, " "), want, out.String())
	}
}
