package fn

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// TestNoVersionAnnotationByDefault checks that nfd-fn, like nfd-master,
// writes no annotation of its own on Nodes unless asked to.
func TestNoVersionAnnotationByDefault(t *testing.T) {
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
		oneNodeItems + kernelSixNode("up-to-date", "true") + kernelSixNode("stale", "false")
	out, code := runList(t, in)
	if code != 0 {
		t.Fatalf("exit code %d, output:\n%s", code, out)
	}
	got := nodeAnnotations(t, []byte(out))
	want := map[string]string{"n1": "", "up-to-date": "v0.0.1-old", "stale": "v0.0.1-old"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s per Node (-want +got):\n%s", version.Annotation, diff)
	}
}

// TestStampVersionMarksOnlyNodesNfdFnWrote checks the opt-in version
// annotation: set on new Nodes and on Nodes whose NFD state changed, left
// alone on Nodes that were already up to date (so that a new release does
// not rewrite them).
func TestStampVersionMarksOnlyNodesNfdFnWrote(t *testing.T) {
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n" +
		"functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data: {stampVersion: \"true\"}\nitems:\n" +
		oneNodeItems + // NodeFeature n1 (no Node yet) and the kernel-six rule
		kernelSixNode("up-to-date", "true") + kernelSixNode("stale", "false")
	out, code := runList(t, in)
	if code != 0 {
		t.Fatalf("exit code %d, output:\n%s", code, out)
	}
	got := nodeAnnotations(t, []byte(out))
	want := map[string]string{"n1": version.Version, "stale": version.Version, "up-to-date": "v0.0.1-old"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s per Node (-want +got):\n%s", version.Annotation, diff)
	}
	if again, _ := runList(t, out); again != out {
		t.Errorf("a second run changed the output:\n%s", again)
	}
}

// kernelSixNode is a NodeFeature for node that the kernel-six rule
// matches, and the node's Node object with the label at value, written by
// an older nfd-fn.
func kernelSixNode(node, value string) string {
	return fmt.Sprintf(`- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: %[1]s
    namespace: node-feature-discovery
    labels: {nfd.node.kubernetes.io/node-name: %[1]s}
  spec:
    features:
      attributes:
        kernel.version: {elements: {major: "6"}}
- apiVersion: v1
  kind: Node
  metadata:
    name: %[1]s
    labels:
      feature.node.kubernetes.io/kernel-six: "%[2]s"
    annotations:
      nfd-fn.dev/version: v0.0.1-old
      nfd.node.kubernetes.io/feature-labels: kernel-six
`, node, value)
}

// nodeAnnotations maps each Node of a ResourceList to its version
// annotation.
func nodeAnnotations(t *testing.T, list []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, md := range outputNodes(t, list) {
		out[name] = md.Annotations[version.Annotation]
	}
	return out
}
