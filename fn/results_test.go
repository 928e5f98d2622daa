package fn

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

const brokenRuleList = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata:
    name: old-docs
    annotations:
      internal.config.kubernetes.io/path: rules/old.yaml
      internal.config.kubernetes.io/index: "2"
  spec:
    rules:
    - name: copied from old docs
      labels: {x: "true"}
      matchFeatures:
      - feature: pci.device
        matchExpressions:
          vendor: {op: In, values: ["8086"]}
- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata:
    name: short-form
  spec:
    rules:
    - name: worker short form
      matchFeatures:
      - feature: pci.device
        matchExpressions:
          vendor: ["8086"]
- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata:
    name: bad-regexp
  spec:
    rules:
    - name: r
      labels: {"y": "true"}
      matchFeatures:
      - feature: kernel.config
        matchExpressions:
          X86: {op: Exists, value: ["y"]}
`

// TestResultsPointAtFileObjectAndField: every problem of brokenRuleList is
// a result naming its file, object and field. The misspelt values: is an
// error where the API server is assumed to refuse it (validate assumes
// kubectl's fieldValidation=Strict); render assumes Warn (client-go,
// Helm), where it is pruned, a warning, and the expression left without
// a value is the error (nfd-master fails the rule on every node).
func TestResultsPointAtFileObjectAndField(t *testing.T) {
	const misspelt, pruned = "spec.rules[0].matchFeatures[0].matchExpressions.vendor.values", "spec.rules[0].matchFeatures[0].matchExpressions.vendor.value"
	for _, tc := range []struct {
		mode, oldDocsError string
	}{{"", pruned}, {"validate", misspelt}} {
		t.Run("mode-"+tc.mode, func(t *testing.T) {
			out, code := testkit.Run(t, runWith(RunOptions{ForceMode: tc.mode}), []byte(brokenRuleList))
			if code != 1 {
				t.Errorf("exit code = %d, want 1", code)
			}
			got := testkit.Read(t, out)
			if len(got.Items) != 3 {
				t.Errorf("items = %d, want all 3 passed through", len(got.Items))
			}
			want := map[string]string{
				"old-docs":   tc.oldDocsError,
				"short-form": "spec.rules[0].matchFeatures[0].matchExpressions.vendor",
				"bad-regexp": "spec.rules[0].matchFeatures[0].matchExpressions.X86.value",
			}
			hinted := false
			for _, res := range got.Results {
				name := res.ResourceRef["name"]
				if name == "old-docs" && res.Field.Path == misspelt {
					hinted = res.File.Path == "rules/old.yaml" && res.File.Index == 2 && strings.Contains(res.Message, `did you mean "value"`)
				}
				if res.Field.Path == want[name] && res.Severity == "error" {
					delete(want, name)
				}
			}
			if !hinted {
				t.Errorf("no result for old-docs at %s with its file and did-you-mean; results: %+v", misspelt, got.Results)
			}
			for name, field := range want {
				t.Errorf("no error result for %s at %s; results: %+v", name, field, got.Results)
			}
		})
	}
}

func TestUnknownFeatureGateIsAnErrorSuggestingTheKnownGate(t *testing.T) {
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data:\n    featureGates: DisableAutoPrefx=true\n"
	out, code := runList(t, in)
	if code != 1 || !strings.Contains(out, `did you mean "DisableAutoPrefix"?`) || !strings.Contains(out, "data.featureGates") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// TestErrorsGoToStderrOnceUnderKpt checks what a failing run writes on
// stderr: one line per error for kustomize and plain pipes, which do not
// show results, and under kpt (items carrying kpt's package-path or
// seqindent annotations) one line pointing at the results kpt prints
// above it, so that each error is not shown twice.
func TestErrorsGoToStderrOnceUnderKpt(t *testing.T) {
	kptRender := strings.Replace(brokenRuleList, "      internal.config.kubernetes.io/index: \"2\"\n",
		"      internal.config.kubernetes.io/index: \"2\"\n      internal.config.kubernetes.io/package-path: /home/me/pkg\n", 1)
	kptEval := strings.Replace(brokenRuleList, "      internal.config.kubernetes.io/index: \"2\"\n",
		"      internal.config.kubernetes.io/index: \"2\"\n      internal.config.kubernetes.io/seqindent: compact\n", 1)
	kustomize := strings.Replace(brokenRuleList, "      internal.config.kubernetes.io/index: \"2\"\n",
		"      internal.config.kubernetes.io/index: \"2\"\n      kustomize.config.k8s.io/id: |\n        kind: NodeFeatureRule\n", 1)
	for _, c := range []struct {
		name, input string
		lines       int
		want        string
	}{
		// 3 errors: render assumes fieldValidation=Warn, so the misspelt
		// values: is pruned (a warning, not on stderr) and the expression
		// left without a value is the error.
		{"kpt-render", kptRender, 1, "nfd-fn: 3 errors, each listed with its file, object and field in the results"},
		{"kpt-eval", kptEval, 1, "nfd-fn: 3 errors, each listed"},
		{"kustomize", kustomize, 3, `op In needs at least one value`},
		{"plain-pipe", brokenRuleList, 3, `op In needs at least one value`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.input == brokenRuleList && c.name != "plain-pipe" {
				t.Fatal("the annotation was not added: the fixture changed")
			}
			var out, stderr bytes.Buffer
			code, err := Run([]byte(c.input), &out, RunOptions{ErrorLog: &stderr})
			if err != nil || code != 1 {
				t.Fatalf("exit %d, err %v; want 1", code, err)
			}
			got := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			if len(got) != c.lines || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr has %d lines, want %d saying %q:\n%s", len(got), c.lines, c.want, stderr.String())
			}
			if !strings.Contains(out.String(), `unknown field "values"`) {
				t.Errorf("the results do not hold the error:\n%s", out.String())
			}
		})
	}
}
