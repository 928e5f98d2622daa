package lint

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

func workerFindings(t *testing.T, conf, check string) []string {
	t.Helper()
	wc, err := ReadWorkerConfig([]byte(conf), "worker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set := &objects.Set{}
	rules := "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}, {feature: rule.matched, matchExpressions: {b: {op: DoesNotExist}}}]\n"
	if ds := set.ReadBytes([]byte(rules), "r.yaml", false); ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return findingsOf(Static(set, Options{Master: master.DefaultOptions(), Worker: wc}), check)
}

// TestNoPublishFeatureWithheldByTheWorkerIsAnError reads the three forms
// of a worker configuration; a rule on a withheld feature is an error.
func TestNoPublishFeatureWithheldByTheWorkerIsAnError(t *testing.T) {
	forms := map[string]string{
		"worker-conf":  "core:\n  noPublishFeatures: [\"pci.*\"]\n",
		"configmap":    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: w}\ndata:\n  nfd-worker.conf: |\n    core:\n      noPublishFeatures: [pci.device]\n",
		"helm-values":  "worker:\n  config:\n    core:\n      noPublishFeatures: [\"pci.*\"]\n",
		"case-of-keys": "Core:\n  NoPublishFeatures: [\"pci.*\"]\n",
	}
	for name, conf := range forms {
		t.Run(name, func(t *testing.T) {
			got := workerFindings(t, conf, "no-publish-feature")
			if len(got) != 1 || !strings.HasPrefix(got[0], "error spec.rules[0].matchFeatures[0].feature: the nfd-worker configuration worker.yaml withholds pci.device") {
				t.Errorf("findings = %q", got)
			}
		})
	}
	if got := workerFindings(t, "core:\n  noPublishFeatures: [\"usb.*\"]\n", "no-publish-feature"); len(got) != 0 {
		t.Errorf("a feature the worker publishes is reported: %q", got)
	}
}

// TestWorkerCustomRuleRefusesGeLeAndType checks the custom source's
// operators and its missing type field.
func TestWorkerCustomRuleRefusesGeLeAndType(t *testing.T) {
	conf := `sources:
  custom:
  - name: x
    labels: {x: "true"}
    matchFeatures:
    - feature: kernel.version
      matchExpressions:
        major: {op: GeLe, value: ["5", "6"]}
        minor: {op: Gt, value: ["1"]}
    matchAny:
    - matchFeatures:
      - feature: kernel.version
        matchExpressions:
          full: {op: Gt, value: ["6.8.0"], type: version}
`
	got := workerFindings(t, conf, "worker-custom-rule")
	want := []string{
		`error sources.custom[0].matchFeatures[0].matchExpressions.major.op: op "GeLe" is not an operator of nfd-worker's custom source`,
		`error sources.custom[0].matchAny[0].matchFeatures[0].matchExpressions.full.type: nfd-worker's custom source has no type field`,
	}
	if len(got) != len(want) {
		t.Fatalf("findings = %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d = %q, want %q...", i, got[i], want[i])
		}
	}
}

// TestWorkerCustomRulesUnderAMiscasedSourceAreNotChecked: nfd-worker
// reads sources.custom only by its exact name, so rules under
// sources.Custom never run and are not the custom source's to refuse.
func TestWorkerCustomRulesUnderAMiscasedSourceAreNotChecked(t *testing.T) {
	conf := "sources:\n  Custom:\n  - name: x\n    labels: {x: \"true\"}\n    matchFeatures:\n    - feature: kernel.version\n      matchExpressions:\n        major: {op: Ge, value: [\"5\"]}\n"
	if got := workerFindings(t, conf, "worker-custom-rule"); len(got) != 0 {
		t.Errorf("rules under sources.Custom, which nfd-worker ignores, are reported: %q", got)
	}
	if got := workerFindings(t, strings.Replace(conf, "Custom", "custom", 1), "worker-custom-rule"); len(got) != 1 {
		t.Errorf("the same rules under sources.custom give %q, want one finding", got)
	}
}
