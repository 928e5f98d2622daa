package e2e

import (
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestApplyOutputRemovesWhatItShould is issue 34's first output point.
// Server-side apply keeps, per field manager and subresource, exactly the
// fields of the last apply, and removes those it no longer holds. So:
// every node with a NodeFeature gets a Node in both apply streams, even
// when no Node object was given and NFD owns nothing on it (name-only);
// `-o apply` holds the Node's own fields and no status, `-o apply-status`
// the name and status alone, so that the two applies of one field
// manager never share a field. Rendering the NodeFeatures alone with
// rules, then without them, the second applies name-only Nodes, whose
// applied sets drop every label, taint and extended resource the first
// set.
func TestApplyOutputRemovesWhatItShould(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	dir := t.TempDir()
	copyPath(t, filepath.Join(planFixture, "rules"), filepath.Join(dir, "rules"))
	copyPath(t, filepath.Join(planFixture, "config.yaml"), filepath.Join(dir, "config.yaml"))
	writeNodeFeaturesOnly(t, filepath.Join(planFixture, "snapshot.yaml"), filepath.Join(dir, "features.yaml"))
	render := func(output string, args ...string) map[string]map[string]any {
		t.Helper()
		out, stderr, code := run(t, dir, commandEnv(nil), nil, bin, append([]string{"render", "-o", output, "--config", "config.yaml", "features.yaml"}, args...)...)
		if code != 0 {
			t.Fatalf("-o %s %v: exit %d\n%s", output, args, code, stderr)
		}
		return nodeDocs(t, out)
	}
	before, beforeStatus := render("apply", "rules"), render("apply-status", "rules")
	after, afterStatus := render("apply"), render("apply-status")
	fleet := []string{"cpu-1", "cpu-2", "gpu-1", "gpu-2"}
	for _, stream := range []struct {
		name string
		docs map[string]map[string]any
	}{{"apply with rules", before}, {"apply-status with rules", beforeStatus}, {"apply without rules", after}, {"apply-status without rules", afterStatus}} {
		if got := slices.Sorted(maps.Keys(stream.docs)); !slices.Equal(got, fleet) {
			t.Errorf("%s: Nodes %v, want one for every node with a NodeFeature %v", stream.name, got, fleet)
		}
	}
	for name := range before {
		obj, status := appliedFields(before[name]), appliedFields(beforeStatus[name])
		if slices.Contains(obj, "status") || slices.ContainsFunc(obj, func(f string) bool { return strings.HasPrefix(f, "status.") }) {
			t.Errorf("%s: -o apply holds status fields %v: the main resource's apply would try to own what the status apply sets", name, obj)
		}
		for _, f := range status {
			if f != "metadata.name" && !strings.HasPrefix(f, "status.") {
				t.Errorf("%s: -o apply-status holds %s: its apply would own it too, and never let it go", name, f)
			}
		}
	}
	if got := appliedFields(after["gpu-1"]); !slices.Equal(got, []string{"metadata.name"}) {
		t.Errorf("gpu-1 without rules: -o apply holds %v, want a name-only Node", got)
	}
	removed := difference(appliedFields(before["gpu-1"]), appliedFields(after["gpu-1"]))
	for _, want := range []string{"metadata.labels.nvidia.com/gpu.present", "spec.taints"} {
		if !slices.Contains(removed, want) {
			t.Errorf("gpu-1: the second apply does not remove %s (removed %v)", want, removed)
		}
	}
	removed = difference(appliedFields(beforeStatus["gpu-1"]), appliedFields(afterStatus["gpu-1"]))
	for _, want := range []string{"status.capacity.nvidia.com/gpu", "status.allocatable.nvidia.com/gpu"} {
		if !slices.Contains(removed, want) {
			t.Errorf("gpu-1: the second status apply does not remove %s (removed %v)", want, removed)
		}
	}
}

// writeNodeFeaturesOnly writes the NodeFeatures of a kubectl export (a v1
// List) to file: a fleet whose Node objects were not exported.
func writeNodeFeaturesOnly(t *testing.T, export, file string) {
	t.Helper()
	b, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []map[string]any `yaml:"items"`
	}
	if err := yaml.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	var out []byte
	for _, it := range list.Items {
		if it["kind"] != "NodeFeature" {
			continue
		}
		doc, err := yaml.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		out = append(append(out, "---\n"...), doc...)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// nodeDocs reads an apply stream, which must hold Nodes only, by name.
func nodeDocs(t *testing.T, stream string) map[string]map[string]any {
	t.Helper()
	docs := map[string]map[string]any{}
	dec := yaml.NewDecoder(strings.NewReader(stream))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("apply stream: %v\n%s", err, stream)
		}
		md, _ := doc["metadata"].(map[string]any)
		name, _ := md["name"].(string)
		if doc["apiVersion"] != "v1" || doc["kind"] != "Node" || name == "" {
			t.Fatalf("apply stream holds %v, not a named Node", doc)
		}
		docs[name] = doc
	}
}

// appliedFields lists the fields an applied object sets, as server-side
// apply records them: every leaf of a map by its dotted path (apiVersion
// and kind, which identify the object, left out), and a list as a whole.
func appliedFields(doc map[string]any) []string {
	var fields []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		m, ok := v.(map[string]any)
		if !ok || len(m) == 0 {
			fields = append(fields, prefix)
			return
		}
		for k, c := range m {
			walk(prefix+"."+k, c)
		}
	}
	for k, v := range doc {
		if k != "apiVersion" && k != "kind" {
			walk(k, v)
		}
	}
	sort.Strings(fields)
	return fields
}

// difference lists the fields of a not in b.
func difference(a, b []string) []string {
	var out []string
	for _, f := range a {
		if !slices.Contains(b, f) {
			out = append(out, f)
		}
	}
	return out
}

// TestSummaryCountsWhatNodesGet is issue 34's second output point: the
// summary line of a render over files counts the labels and taints the
// nodes get after nfd-master's policy, as -o labels-json lists them (with
// enableTaints off, a rule's taint is no taint set), and the warnings it
// counts are each on stderr, not only counted.
func TestSummaryCountsWhatNodesGet(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	dir := brokenSnapshot(t, false) // rendered without its config: enableTaints is off
	// A rule matching no node: a warning (NFD020) to be shown, not only counted.
	if err := os.WriteFile(filepath.Join(dir, "rules", "unmatched.yaml"), []byte(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: unmatched
spec:
  rules:
    - name: never
      labels: {example.com/never: "true"}
      matchFeatures:
        - feature: kernel.version
          matchExpressions:
            major: {op: In, value: ["1"]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"snapshot.yaml", "rules"}
	out, stderr, code := run(t, dir, commandEnv(nil), nil, bin, append([]string{"render", "-o", "labels-json"}, files...)...)
	var view labelsView
	if err := json.Unmarshal([]byte(out), &view); err != nil {
		t.Fatalf("-o labels-json: exit %d, %v\n%s%s", code, err, out, stderr)
	}
	labels, taints := 0, 0
	for _, n := range view.Nodes {
		labels += len(n.Labels)
		taints += len(n.Taints)
	}
	for _, output := range []string{"labels-json", "apply", "resourcelist"} {
		_, stderr, _ := run(t, dir, commandEnv(nil), nil, bin, append([]string{"render", "-o", output}, files...)...)
		m := regexp.MustCompile(`nfd-fn render: 4 nodes, \d+ rules; (\d+) labels? and (\d+) taints? set; (\d+) errors?, (\d+) warnings?;`).FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("-o %s: no summary line:\n%s", output, stderr)
		}
		if m[1] != strconv.Itoa(labels) || m[2] != strconv.Itoa(taints) || taints != 0 {
			t.Errorf("-o %s: summary says %s labels and %s taints, the nodes get %d and %d (taints off):\n%s", output, m[1], m[2], labels, taints, stderr)
		}
		warnings := strings.Count(stderr, ": warning: ")
		if m[4] == "0" || m[4] != strconv.Itoa(warnings) || !strings.Contains(stderr, `rule "never" matches none of the 4 nodes`) {
			t.Errorf("-o %s: summary counts %s warnings, stderr shows %d:\n%s", output, m[4], warnings, stderr)
		}
	}
}
