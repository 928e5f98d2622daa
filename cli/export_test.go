package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

const exportDir = "../testdata/cluster-export"

// renderedNode is the part of an output Node the export test compares.
type renderedNode struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	Taints      []map[string]any  `json:"taints"`
	Capacity    map[string]string `json:"capacity"`
	Allocatable map[string]string `json:"allocatable"`
}

// renderedNodes runs nfd-fn with args (and stdin) and returns its Nodes by
// name; it fails the test on a non-zero exit or any error result.
func renderedNodes(t *testing.T, stdin string, args ...string) map[string]renderedNode {
	t.Helper()
	out, errOut, code := testkit.Command(Main, stdin, args...)
	if code != 0 {
		t.Fatalf("nfd-fn %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	var list struct {
		Items []struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name        string            `json:"name"`
				Labels      map[string]string `json:"labels"`
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
			Spec struct {
				Taints []map[string]any `json:"taints"`
			} `json:"spec"`
			Status struct {
				Capacity    map[string]string `json:"capacity"`
				Allocatable map[string]string `json:"allocatable"`
			} `json:"status"`
		} `json:"items"`
	}
	if err := yaml.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("output is not a ResourceList: %v", err)
	}
	for _, r := range testkit.Read(t, []byte(out)).Results {
		if r.Severity == "error" {
			t.Errorf("error result: %s", r.Message)
		}
	}
	nodes := map[string]renderedNode{}
	for _, it := range list.Items {
		if it.Kind != "Node" {
			continue
		}
		ann := map[string]string{}
		for k, v := range it.Metadata.Annotations {
			if !strings.Contains(k, "config.kubernetes.io/") {
				ann[k] = v
			}
		}
		nodes[it.Metadata.Name] = renderedNode{Labels: it.Metadata.Labels, Annotations: ann, Taints: it.Spec.Taints,
			Capacity: it.Status.Capacity, Allocatable: it.Status.Allocatable}
	}
	return nodes
}

// TestClusterExportRendersTheSameInEveryShape is the README's "Run your
// rules against your cluster" end to end: the export and the rules
// directory as files, the export as JSON, everything split over a
// directory, and everything inside a ResourceList on stdin give the same
// Nodes, with no error result, and those are nfd-master's.
func TestClusterExportRendersTheSameInEveryShape(t *testing.T) {
	snapshot := filepath.Join(exportDir, "snapshot.yaml")
	rules := filepath.Join(exportDir, "rules")
	config := filepath.Join(exportDir, "config.yaml")
	files := renderedNodes(t, "", "render", "--config", config, snapshot, rules)

	tmp := t.TempDir()
	asJSON := filepath.Join(tmp, "snapshot.json")
	writeJSONOf(t, snapshot, asJSON)
	shapes := map[string]map[string]renderedNode{
		"json-export":     renderedNodes(t, "", "render", "--config", config, asJSON, rules),
		"split-directory": renderedNodes(t, "", "render", "--config", config, splitExport(t, snapshot, rules)),
		"stdin-dash":      renderedNodes(t, readFile(t, snapshot), "render", "--config", config, "-", rules),
		"resourcelist":    renderedNodes(t, resourceListFrom(t, config, snapshot, rules)),
	}
	for name, got := range shapes {
		if !reflect.DeepEqual(got, files) {
			t.Errorf("%s: Nodes differ from the file render:\n got %v\nwant %v", name, got, files)
		}
	}
	checkAgainstNfdMaster(t, files)
}

// checkAgainstNfdMaster compares the Nodes with expected.json, what
// nfd-master v0.19.0 produced for the same objects.
func checkAgainstNfdMaster(t *testing.T, got map[string]renderedNode) {
	t.Helper()
	var want struct {
		Nodes map[string]struct {
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
			Capacity    map[string]string `json:"capacity"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(exportDir, "expected.json"))), &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want.Nodes) {
		t.Errorf("%d Nodes, want %d", len(got), len(want.Nodes))
	}
	for name, w := range want.Nodes {
		g := got[name]
		if !reflect.DeepEqual(g.Labels, w.Labels) {
			t.Errorf("%s labels:\n got %v\nwant %v", name, g.Labels, w.Labels)
		}
		for k, v := range w.Annotations {
			if g.Annotations[k] != v {
				t.Errorf("%s annotation %s = %q, want %q", name, k, g.Annotations[k], v)
			}
		}
		for k, v := range w.Capacity {
			if g.Capacity[k] != v {
				t.Errorf("%s capacity %s = %q, want %q", name, k, g.Capacity[k], v)
			}
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeJSONOf writes the YAML file src as JSON (kubectl -o json) to dst.
func writeJSONOf(t *testing.T, src, dst string) {
	t.Helper()
	b, err := yaml.YAMLToJSON([]byte(readFile(t, src)))
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b, "", "    "); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dst, pretty.String())
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// exportItems reads the items of the export's v1 List.
func exportItems(t *testing.T, snapshot string) []map[string]any {
	t.Helper()
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, snapshot)), &list); err != nil {
		t.Fatal(err)
	}
	return list.Items
}

// splitExport writes each object of the export to a file of its own in
// nested folders, alternately YAML and JSON, with the rules beside them.
func splitExport(t *testing.T, snapshot, rules string) string {
	t.Helper()
	dir := t.TempDir()
	for i, it := range exportItems(t, snapshot) {
		md := it["metadata"].(map[string]any)
		name := filepath.Join(dir, strings.ToLower(it["kind"].(string)), md["name"].(string))
		if i%2 == 0 {
			b, _ := yaml.Marshal(it)
			writeFile(t, name+".yaml", string(b))
		} else {
			b, _ := json.MarshalIndent(it, "", "  ")
			writeFile(t, name+".json", string(b))
		}
	}
	if err := filepath.Walk(rules, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(rules, p)
		writeFile(t, filepath.Join(dir, "rules", rel), readFile(t, p))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// resourceListFrom wraps the export's objects, the rules and the config
// in a ResourceList, as kpt would hand them to the function.
func resourceListFrom(t *testing.T, config, snapshot, rules string) string {
	t.Helper()
	var fc map[string]any
	if err := yaml.Unmarshal([]byte(readFile(t, config)), &fc); err != nil {
		t.Fatal(err)
	}
	items := exportItems(t, snapshot)
	if err := filepath.Walk(rules, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		for _, doc := range strings.Split(readFile(t, p), "\n---\n") {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
				t.Fatal(err)
			}
			items = append(items, obj) // a v1 List stays one item, as kpt hands it over
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b, err := yaml.Marshal(map[string]any{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "functionConfig": fc, "items": items})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestApplyOutputSendsOnlyWhatNFDOwns shows the apply-ready form: for
// `kubectl apply --server-side --field-manager=nfd-fn -f -`, each Node
// carries only its name and what NFD owns of its own fields; for the same
// with `--subresource=status` (-o apply-status), its name and the extended
// resources NFD owns. Nothing of the export's own metadata or status, and
// no kpt annotation.
func TestApplyOutputSendsOnlyWhatNFDOwns(t *testing.T) {
	for _, node := range applyDocs(t, "apply") {
		if keys := sortedKeys(node); !reflect.DeepEqual(keys, []string{"apiVersion", "kind", "metadata"}) &&
			!reflect.DeepEqual(keys, []string{"apiVersion", "kind", "metadata", "spec"}) {
			t.Errorf("-o apply: top-level keys %v", keys)
		}
		md := node["metadata"].(map[string]any)
		if keys := sortedKeys(md); !reflect.DeepEqual(keys, []string{"annotations", "labels", "name"}) {
			t.Errorf("%v: metadata keys %v, want annotations, labels, name", md["name"], keys)
		}
		for k := range md["labels"].(map[string]any) {
			if strings.HasPrefix(k, "kubernetes.io/") || strings.HasPrefix(k, "node-role") {
				t.Errorf("%v: label %s is not NFD's", md["name"], k)
			}
		}
		for k := range md["annotations"].(map[string]any) {
			if !strings.Contains(k, "nfd.node.kubernetes.io/") && !strings.HasPrefix(k, "feature.node.kubernetes.io/") {
				t.Errorf("%v: annotation %s is not NFD's", md["name"], k)
			}
		}
	}
	resources := 0
	for _, node := range applyDocs(t, "apply-status") {
		md := node["metadata"].(map[string]any)
		if keys := sortedKeys(md); !reflect.DeepEqual(keys, []string{"name"}) {
			t.Errorf("-o apply-status: %v: metadata keys %v, want the name alone", md["name"], keys)
		}
		st, ok := node["status"].(map[string]any)
		if !ok {
			continue
		}
		resources++
		if keys := sortedKeys(st); !reflect.DeepEqual(keys, []string{"allocatable", "capacity"}) {
			t.Errorf("%v: status keys %v", md["name"], keys)
		}
		if _, ok := st["capacity"].(map[string]any)["cpu"]; ok {
			t.Errorf("%v: status carries the node's own capacity", md["name"])
		}
	}
	if resources == 0 {
		t.Error("-o apply-status: no Node carries an extended resource")
	}
}

// applyDocs renders the cluster export with -o output (apply or
// apply-status) and returns its documents, one for each of the 4 Nodes.
func applyDocs(t *testing.T, output string) []map[string]any {
	t.Helper()
	var out, errOut bytes.Buffer
	args := []string{"render", "--output", output, "--config", filepath.Join(exportDir, "config.yaml"),
		filepath.Join(exportDir, "snapshot.yaml"), filepath.Join(exportDir, "rules")}
	if code := Main(args, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("-o %s: exit %d\n%s", output, code, errOut.String())
	}
	docs := strings.Split(out.String(), "\n---\n")
	if len(docs) != 4 {
		t.Fatalf("-o %s: %d documents, want the 4 Nodes:\n%s", output, len(docs), out.String())
	}
	var nodes []map[string]any
	for _, doc := range docs {
		var node map[string]any
		if err := yaml.Unmarshal([]byte(doc), &node); err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, node)
	}
	return nodes
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestBrokenExportsAreErrorsNamingThePlace covers a truncated export and a
// List whose items are not objects: exit 1, an error naming the file and
// line, and stdout still a complete ResourceList with the rest.
func TestBrokenExportsAreErrorsNamingThePlace(t *testing.T) {
	snapshot := readFile(t, filepath.Join(exportDir, "snapshot.yaml"))
	tests := []struct {
		name, data, want string
	}{
		{"truncated-export", snapshot[:len(snapshot)/2] + "\n  - {unclosed: [\n", "broken.yaml:"},
		{"list-of-scalars", "apiVersion: v1\nkind: List\nitems:\n- just a string\n- 42\n", "broken.yaml:4:3: error: document is not a YAML mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "broken.yaml"), tt.data)
			out, errOut, code := testkit.Command(Main, "", "render", filepath.Join(dir, "broken.yaml"), filepath.Join(exportDir, "rules"))
			if code != 1 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant it to name %q", code, errOut, tt.want)
			}
			var list struct {
				Kind  string           `json:"kind"`
				Items []map[string]any `json:"items"`
			}
			if err := yaml.Unmarshal([]byte(out), &list); err != nil || list.Kind != "ResourceList" || len(list.Items) < 7 {
				t.Errorf("stdout is not a complete ResourceList with the rules (%v, %d items)", err, len(list.Items))
			}
		})
	}
}
