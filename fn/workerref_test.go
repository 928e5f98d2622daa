package fn

import (
	"strings"
	"testing"
)

// gpuNodeItem is a GPU node's NodeFeature as nfd-worker published it with
// deviceLabelFields [vendor].
const gpuNodeItem = `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: gpu-1
    namespace: node-feature-discovery
    labels: {nfd.node.kubernetes.io/node-name: gpu-1}
  spec:
    features:
      instances:
        pci.device: {elements: [{attributes: {class: "0302", vendor: "10de", device: "2330"}}]}
    labels: {feature.node.kubernetes.io/pci-10de.present: "true"}
`

// gpuDaemonSetItem selects the GPU nodes by the label deviceLabelFields
// [vendor] makes.
const gpuDaemonSetItem = `- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: driver, namespace: gpu}
  spec:
    selector: {matchLabels: {app: driver}}
    template:
      metadata: {labels: {app: driver}}
      spec:
        nodeSelector: {feature.node.kubernetes.io/pci-10de.present: "true"}
        containers: [{name: c, image: driver}]
`

// workerConfigMapItem is a worker ConfigMap (NFD's chart's) in namespace
// ns with the PCI label fields given.
func workerConfigMapItem(ns, fields string) string {
	return `- apiVersion: v1
  kind: ConfigMap
  metadata: {name: nfd-worker-conf, namespace: ` + ns + `}
  data:
    nfd-worker.conf: |
      sources: {pci: {deviceClassWhitelist: ["0302"], deviceLabelFields: ` + fields + `}}
`
}

// TestWorkerConfigMapNamesTheWorkerConfigAboutToRollOut is issue 37's
// functionConfig twin of --worker-config: workerConfigMap names a
// ConfigMap among the items, validate then warns (NFD311) about the
// workload selecting a label that configuration no longer produces, and
// render recomputes the node's labels with it; a ConfigMap that is not
// there, is ambiguous or holds no nfd-worker.conf is an error about the
// functionConfig, and other modes ignore the key with a warning.
func TestWorkerConfigMapNamesTheWorkerConfigAboutToRollOut(t *testing.T) {
	items := []string{gpuNodeItem, gpuDaemonSetItem, workerConfigMapItem("nfd", "[vendor, device]")}
	t.Run("validate-warns-about-the-workload", func(t *testing.T) {
		res := results(runRelease(t, listOf("mode: validate, workerConfigMap: nfd/nfd-worker-conf", items...), RunOptions{}))
		if !strings.Contains(res, "warning: selects label feature.node.kubernetes.io/pci-10de.present, which nfd-worker no longer publishes with the worker configuration ConfigMap nfd/nfd-worker-conf (gone from node gpu-1)") {
			t.Errorf("no NFD311 warning about pci-10de.present:\n%s", res)
		}
	})
	t.Run("validate-without-the-key-warns-nothing", func(t *testing.T) {
		if res := results(runRelease(t, listOf("mode: validate", items...), RunOptions{})); strings.Contains(res, "no longer publishes") {
			t.Errorf("NFD311 without a worker configuration named:\n%s", res)
		}
	})
	t.Run("render-recomputes-the-labels", func(t *testing.T) {
		got := runRelease(t, listOf("workerConfigMap: nfd-worker-conf", items...), RunOptions{})
		if nodeLabel(got, "gpu-1", "feature.node.kubernetes.io/pci-10de_2330.present") != "true" || nodeLabel(got, "gpu-1", "feature.node.kubernetes.io/pci-10de.present") != "" {
			t.Errorf("node gpu-1 not relabelled by the named configuration:\n%s", results(got))
		}
	})
	for _, tc := range []struct {
		name, data string
		items      []string
		want       string
	}{
		{"missing", "mode: validate, workerConfigMap: nfd/other", items, "error: functionConfig: workerConfigMap: no ConfigMap nfd/other among the items"},
		{"ambiguous", "mode: validate, workerConfigMap: nfd-worker-conf", append(append([]string(nil), items...), workerConfigMapItem("other", "[vendor]")), "error: functionConfig: workerConfigMap: 2 ConfigMaps named nfd-worker-conf among the items: name one as namespace/name"},
		{"not-a-worker-config", "mode: validate, workerConfigMap: c2", append(append([]string(nil), items...), "- {apiVersion: v1, kind: ConfigMap, metadata: {name: c2}, data: {a: b}}\n"), `error: functionConfig: workerConfigMap: ConfigMap c2 has no data["nfd-worker.conf"]`},
		{"bad-form", "mode: validate, workerConfigMap: a/b/c", items, `error: functionConfig: workerConfigMap "a/b/c" is not a ConfigMap's name nor namespace/name`},
		{"other-mode", "mode: plan, workerConfigMap: nfd-worker-conf", items, "warning: functionConfig: workerConfigMap is read by modes render and validate; mode plan ignores it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if res := results(runRelease(t, listOf(tc.data, tc.items...), RunOptions{})); !strings.Contains(res, tc.want) {
				t.Errorf("no %q in the results:\n%s", tc.want, res)
			}
		})
	}
}
