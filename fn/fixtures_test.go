package fn

import "strings"

// listOf is a ResourceList whose functionConfig is a ConfigMap with the
// data given (the inside of a flow mapping: "mode: validate") and whose
// items are the block YAML items given, in order.
func listOf(data string, items ...string) string {
	return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data: {" + data + "}\nitems:\n" + strings.Join(items, "")
}

// kernelSixFeature is the NodeFeature item nfd-worker publishes for node
// name, of kernel 6, with more attribute lines (indented as
// kernel.version's) after it.
func kernelSixFeature(name string, more ...string) string {
	return `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: ` + name + `
    namespace: node-feature-discovery
    labels: {nfd.node.kubernetes.io/node-name: ` + name + `}
  spec:
    features:
      attributes:
        kernel.version: {elements: {major: "6"}}
` + strings.Join(more, "")
}
