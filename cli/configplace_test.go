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
// (render used to say "<input>", validate left out the ID).
func TestConfigFileProblemsNameTheConfigFile(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"cfg.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  featureGates: \"NoSuchGate=true\"\n",
		"rules.yaml": `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: r
spec:
  rules:
    - name: a
      labels: {x: "y"}
      matchFeatures:
        - feature: kernel.version
          matchExpressions:
            major: {op: Exists}
`,
	})
	cfg, rules := filepath.Join(dir, "cfg.yaml"), filepath.Join(dir, "rules.yaml")
	for _, cmd := range []string{"render", "validate"} {
		var stdout, stderr bytes.Buffer
		code := Main([]string{cmd, "--config", cfg, rules}, strings.NewReader(""), &stdout, &stderr)
		if code == 0 {
			t.Errorf("%s: exit 0 with an unknown feature gate in --config", cmd)
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
