package fn

import (
	"strings"
	"testing"
)

// workerList is a ResourceList in the mode given holding NFD's Helm
// chart's worker ConfigMap (pci.device withheld, a custom rule with Ge), a
// NodeFeature and a rule on pci.device.
func workerList(mode string) string {
	return listOf("mode: "+mode, `- apiVersion: v1
  kind: ConfigMap
  metadata: {name: nfd-worker-conf, namespace: node-feature-discovery}
  data:
    nfd-worker.conf: |-
      core:
        noPublishFeatures: [pci.device]
      sources:
        custom:
        - name: k
          labels: {k: "true"}
          matchFeatures:
          - feature: kernel.version
            matchExpressions:
              major: {op: Ge, value: ["5"]}
`, kernelSixFeature("a"), `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata: {name: intel}
  spec:
    rules:
    - name: intel
      labels: {intel: "true"}
      matchFeatures:
      - feature: pci.device
        matchExpressions: {vendor: {op: In, value: ["8086"]}}
`)
}

func TestWorkerConfigMapInTheInputChecksRulesInKRMMode(t *testing.T) {
	for _, mode := range []string{"validate", "render"} {
		res := results(runRelease(t, workerList(mode), RunOptions{}))
		for _, want := range []string{
			"error: the nfd-worker configuration in ConfigMap nfd-worker-conf withholds pci.device",
			`error: invalid Op "Ge" (nfd-worker's custom rules know In,`,
		} {
			if !strings.Contains(res, want) {
				t.Errorf("mode %s: no %q in the results:\n%s", mode, want, res)
			}
		}
	}
}
