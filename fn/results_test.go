package fn

import (
	"bytes"
	"strings"
	"testing"
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
      labels: {y: "true"}
      matchFeatures:
      - feature: kernel.config
        matchExpressions:
          X86: {op: Exists, value: ["y"]}
`

func TestResultsPointAtFileObjectAndField(t *testing.T) {
	for _, mode := range []string{"", "validate"} {
		t.Run("mode-"+mode, func(t *testing.T) {
			var out bytes.Buffer
			code, err := Run([]byte(brokenRuleList), &out, RunOptions{ForceMode: mode})
			if err != nil {
				t.Fatal(err)
			}
			if code != 1 {
				t.Errorf("exit code = %d, want 1", code)
			}
			got := decodeOutput(t, out.Bytes())
			if len(got.Items) != 3 {
				t.Errorf("items = %d, want all 3 passed through", len(got.Items))
			}
			want := map[string]string{
				"old-docs":   "spec.rules[0].matchFeatures[0].matchExpressions.vendor.values",
				"short-form": "spec.rules[0].matchFeatures[0].matchExpressions.vendor",
				"bad-regexp": "spec.rules[0].matchFeatures[0].matchExpressions.X86.value",
			}
			for _, res := range got.Results {
				name := res.ResourceRef["name"]
				if res.Field.Path == want[name] && res.Severity == "error" {
					delete(want, name)
					if name == "old-docs" && (res.File.Path != "rules/old.yaml" || res.File.Index != 2 || !strings.Contains(res.Message, `did you mean "value"`)) {
						t.Errorf("old-docs result lacks file or hint: %+v", res)
					}
				}
			}
			for name, field := range want {
				t.Errorf("no error result for %s at %s; results: %+v", name, field, got.Results)
			}
		})
	}
}

func TestUnknownFeatureGateIsAnErrorSuggestingTheKnownGate(t *testing.T) {
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data:\n    featureGates: DisableAutoPrefx=true\n"
	var out bytes.Buffer
	code, err := Run([]byte(in), &out, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.Contains(out.String(), `did you mean "DisableAutoPrefix"?`) || !strings.Contains(out.String(), "data.featureGates") {
		t.Errorf("exit %d, output:\n%s", code, out.String())
	}
}
