package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

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
