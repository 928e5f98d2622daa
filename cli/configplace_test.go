package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestConfigFileProblemsNameTheConfigFile: a --config file's problems
// point at that file, with their check ID, in render as in validate
// (render used to say "<input>", validate left out the ID), and an error
// there stops both with exit 2 (render used to write its list, exit 1).
func TestConfigFileProblemsNameTheConfigFile(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"cfg.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  featureGates: \"NoSuchGate=true\"\n",
		"rules.yaml": kernelRule(`labels: {x: "y"}`),
	})
	cfg, rules := filepath.Join(dir, "cfg.yaml"), filepath.Join(dir, "rules.yaml")
	for _, cmd := range []string{"render", "validate"} {
		var stdout, stderr bytes.Buffer
		code := Main([]string{cmd, "--config", cfg, rules}, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || stdout.Len() != 0 && cmd == "render" {
			t.Errorf("%s: exit %d with an unknown feature gate in --config, stdout %.200q; want exit 2 (settings named by a flag are usage) and nothing written", cmd, code, stdout.String())
		}
		line := ""
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.Contains(l, "NoSuchGate") {
				line = strings.TrimPrefix(l, "nfd-fn: ") // render's error log lines
			}
		}
		if !strings.HasPrefix(line, cfg+": error: ") || !strings.Contains(line, "data.featureGates: ") || !strings.HasSuffix(line, "[NFD038]") {
			t.Errorf("%s: the gate's line is %q; want it at %s, naming data.featureGates, ending [NFD038]", cmd, line, cfg)
		}
	}
}

// TestProblemOfANodeWithoutANodeObjectNamesItsNodeFeatureFile: a problem
// about a Node the input holds no object for (validateNodes refusing a
// negative extended resource, NFD032) is placed at the file of that
// node's NodeFeature, not at "<input>".
func TestProblemOfANodeWithoutANodeObjectNamesItsNodeFeatureFile(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"cfg.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  validateNodes: \"true\"\n",
		"rules.yaml": kernelRule(`extendedResources: {example.com/x: "-1"}`),
		"nf.yaml": `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata:
  name: n1
  namespace: node-feature-discovery
  labels: {nfd.node.kubernetes.io/node-name: n1}
spec:
  features:
    attributes:
      kernel.version: {elements: {major: "6"}}
`,
	})
	nf := filepath.Join(dir, "nf.yaml")
	for _, cmd := range []string{"render", "validate"} {
		var stdout, stderr bytes.Buffer
		if code := Main([]string{cmd, "--config", filepath.Join(dir, "cfg.yaml"), filepath.Join(dir, "rules.yaml"), nf}, strings.NewReader(""), &stdout, &stderr); code != 1 {
			t.Errorf("%s: exit %d, want 1 for a negative extended resource under validateNodes", cmd, code)
		}
		told := stderr.String() // render's results
		if cmd == "validate" {
			told = stdout.String() // validate's report
		}
		if !strings.Contains(told, nf+": error: Node/n1 status.capacity: ") || !strings.Contains(told, "[NFD032]") {
			t.Errorf("%s: told %q\nwant NFD032 at %s", cmd, told, nf)
		}
	}
}

// kernelRule is a NodeFeatureRule file whose one rule, matching every node
// with a kernel version, writes output (one line of the rule).
func kernelRule(output string) string {
	return `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: r
spec:
  rules:
    - name: a
      ` + output + `
      matchFeatures:
        - feature: kernel.version
          matchExpressions:
            major: {op: Exists}
`
}
