package fn

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// releaseList is a ResourceList with the functionConfig data given, one
// NodeFeature (annotated with nfd-worker's release when worker is set), a
// rule using Ge and the extra items.
func releaseList(data, worker string, extra ...string) string {
	ann := ""
	if worker != "" {
		ann = "\n    annotations: {nfd.node.kubernetes.io/worker.version: " + worker + "}"
	}
	items := []string{`- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: a
    namespace: node-feature-discovery
    labels: {nfd.node.kubernetes.io/node-name: a}` + ann + `
  spec:
    features:
      attributes:
        kernel.version: {elements: {major: "6"}}
`, `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata: {name: ge}
  spec:
    rules:
    - name: ge
      labels: {k6: "true"}
      matchFeatures:
      - feature: kernel.version
        matchExpressions:
          major: {op: Ge, value: ["6"], type: version}
`}
	return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data: {" + data + "}\nitems:\n" +
		strings.Join(append(items, extra...), "")
}

func masterDeployment(image string) string {
	return testkit.Item(testkit.NFDWorkload("Deployment", "nfd-master", image), "")
}

// runRelease runs the list and returns the rendered list.
func runRelease(t *testing.T, input string, opts RunOptions) testkit.List {
	t.Helper()
	out, _ := testkit.Run(t, runWith(opts), []byte(input))
	return testkit.Read(t, out)
}

func nodeLabel(l testkit.List, node, label string) string {
	v, _ := testkit.Labels(l.Item("Node", node))[label].(string)
	return v
}

func results(l testkit.List) string { return strings.Join(l.Texts(), "\n") }

func TestReleaseDetectedFromTheMasterImage(t *testing.T) {
	got := runRelease(t, releaseList("", "", masterDeployment("registry.k8s.io/nfd/node-feature-discovery:v0.17.1-minimal")), RunOptions{})
	res := results(got)
	if nodeLabel(got, "a", "feature.node.kubernetes.io/k6") != "" ||
		!strings.Contains(res, "info: rendering as NFD v0.17.1, the release the Deployment nfd-master (image registry.k8s.io/nfd/node-feature-discovery:v0.17.1-minimal) shows") ||
		!strings.Contains(res, "error: the API server of NFD v0.17.1 refuses this NodeFeatureRule whole") {
		t.Errorf("label %q, results:\n%s", nodeLabel(got, "a", "feature.node.kubernetes.io/k6"), res)
	}
}

func TestReleaseDetectedFromTheWorkerAnnotation(t *testing.T) {
	got := runRelease(t, releaseList("", "v0.18.3"), RunOptions{})
	if res := results(got); nodeLabel(got, "a", "feature.node.kubernetes.io/k6") != "true" ||
		!strings.Contains(res, "info: rendering as NFD v0.18.3, the release the nfd.node.kubernetes.io/worker.version annotation of 1 NodeFeature(s) shows") {
		t.Errorf("results:\n%s", res)
	}
}

func TestReleaseGivenThatTheInputContradictsIsAWarning(t *testing.T) {
	got := runRelease(t, releaseList("nfdVersion: v0.18.3", "v0.17.1"), RunOptions{})
	if res := results(got); !strings.Contains(res, "warning: rendering as NFD v0.18.3 (nfdVersion), but the nfd.node.kubernetes.io/worker.version annotation of 1 NodeFeature(s) shows v0.17.1") {
		t.Errorf("results:\n%s", res)
	}
}

func TestNoteOnlyWhenTheInputShowsAnotherReleaseThanTheDefault(t *testing.T) {
	if res := results(runRelease(t, releaseList("", "v0.19.0"), RunOptions{})); strings.Contains(res, "rendering as") {
		t.Errorf("results:\n%s", res)
	}
}

func TestNFDVersionOptionOverridesTheFunctionConfig(t *testing.T) {
	got := runRelease(t, releaseList("nfdVersion: v0.19.0", ""), RunOptions{NFDVersion: "v0.17.1"})
	if nodeLabel(got, "a", "feature.node.kubernetes.io/k6") != "" {
		t.Errorf("rendered as v0.19.0, results:\n%s", results(got))
	}
}

func TestStrictFieldValidationRejectsPrunedFields(t *testing.T) {
	gt := strings.Replace(releaseList("nfdVersion: v0.17.1", ""), `op: Ge, value: ["6"]`, `op: Gt, value: ["5"]`, 1)
	if got := runRelease(t, gt, RunOptions{}); nodeLabel(got, "a", "feature.node.kubernetes.io/k6") != "true" ||
		!strings.Contains(results(got), `warning: unknown field "spec.rules[0].matchFeatures[0].matchExpressions.major.type" in NFD v0.17.1's CRD schema`) {
		t.Errorf("pruned: results:\n%s", results(got))
	}
	strict := strings.Replace(gt, "nfdVersion: v0.17.1", `nfdVersion: v0.17.1, strictFieldValidation: "true"`, 1)
	if got := runRelease(t, strict, RunOptions{}); nodeLabel(got, "a", "feature.node.kubernetes.io/k6") != "" ||
		!strings.Contains(results(got), "kubectl apply (fieldValidation=Strict) refuses this NodeFeatureRule whole: strict decoding error: "+
			"unknown field \"spec.rules[0].matchFeatures[0].matchExpressions.major.type\"") {
		t.Errorf("strict: results:\n%s", results(got))
	}
}

// TestMisspeltFieldFollowsStrictFieldValidation: a field no release knows
// (NFD003) is treated as the API server treats it, as a field of a newer
// release (NFD301) is: render (strictFieldValidation unset) assumes
// fieldValidation=Warn, client-go's default: pruned with a warning, the
// rule still labelling; strictFieldValidation: true and validate (the
// pre-commit gate, unless strictFieldValidation: false) assume kubectl's
// Strict: the object refused whole.
func TestMisspeltFieldFollowsStrictFieldValidation(t *testing.T) {
	misspell := func(list string) string {
		return strings.Replace(list, `labels: {k6: "true"}`, `labels: {k6: "true"}
      lables: {k7: "true"}`, 1)
	}
	const pruned = `warning: unknown field "lables": did you mean "labels"?; pruned under fieldValidation=Warn, client-go/Helm's default (Warning: unknown field "spec.rules[0].lables")`
	const refused = `error: unknown field "lables": did you mean "labels"?; kubectl apply (fieldValidation=Strict) refuses this NodeFeatureRule whole: strict decoding error: unknown field "spec.rules[0].lables"`
	for _, tc := range []struct {
		name, setting, mode, want string
		labels                    bool
	}{
		{"render-assumes-warn", "", "", pruned, true},
		{"render-strict", `strictFieldValidation: "true"`, "", refused, false},
		{"validate-assumes-strict", "", "validate", refused, false},
		{"validate-warn", `strictFieldValidation: "false"`, "validate", pruned, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runRelease(t, misspell(releaseList(tc.setting, "")), RunOptions{ForceMode: tc.mode})
			res := results(got)
			if !strings.Contains(res, tc.want) || strings.Count(res, `unknown field "lables"`) != 1 {
				t.Errorf("results:\n%s\nwant one saying %s", res, tc.want)
			}
			if tc.mode == "" && (nodeLabel(got, "a", "feature.node.kubernetes.io/k6") == "true") != tc.labels {
				t.Errorf("rule labels = %v, want %v: results:\n%s", !tc.labels, tc.labels, res)
			}
			if nodeLabel(got, "a", "feature.node.kubernetes.io/k7") != "" {
				t.Errorf("the pruned field labelled")
			}
		})
	}
}

func TestNamelessRuleNeverReachesNFDMaster(t *testing.T) {
	nameless := strings.Replace(strings.Replace(releaseList("", ""), "op: Ge", "op: Exists", 1), "- name: ge\n", "- labels: {x: \"y\"}\n", 1)
	nameless = strings.Replace(nameless, "      labels: {k6: \"true\"}\n", "", 1)
	got := runRelease(t, nameless, RunOptions{})
	if nodeLabel(got, "a", "feature.node.kubernetes.io/x") != "" || !strings.Contains(results(got), "spec.rules[0].name: Required value") {
		t.Errorf("label x %q, results:\n%s", nodeLabel(got, "a", "feature.node.kubernetes.io/x"), results(got))
	}
}

func TestNeedsReleaseWarningOnlyWhenTheReleaseIsAssumed(t *testing.T) {
	if res := results(runRelease(t, releaseList("", ""), RunOptions{})); !strings.Contains(res, "warning: this NodeFeatureRule needs NFD v0.18.0 or later (Ge, type)") {
		t.Errorf("assumed: results:\n%s", res)
	}
	if res := results(runRelease(t, releaseList("", "v0.19.0"), RunOptions{})); strings.Contains(res, "needs NFD") {
		t.Errorf("shown by the input: results:\n%s", res)
	}
}
