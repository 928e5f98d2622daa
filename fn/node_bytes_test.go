package fn

import (
	"strings"
	"testing"
)

// kubectlNode is a Node as kubectl get -o yaml prints it (sequences at the
// key's column), as an item of a ResourceList.
const kubectlNode = `- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      node.alpha.kubernetes.io/ttl: "0"
    creationTimestamp: "2025-03-11T08:21:44Z"
    labels:
      kubernetes.io/hostname: n1
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:labels:
            .: {}
      manager: kubelet
      operation: Update
      time: '2025-03-11T08:21:44Z'
    name: n1
    resourceVersion: "4471"
  spec:
    podCIDR: 10.244.1.0/24
    podCIDRs:
    - 10.244.1.0/24
    providerID: aws:///eu-west-1a/i-0abc
  status:
    addresses:
    - address: 10.0.0.7
      type: InternalIP
    allocatable:
      cpu: "4"
    capacity:
      cpu: "4"
    conditions:
    - lastHeartbeatTime: "2025-03-12T10:00:00Z"
      message: kubelet is posting ready status
      reason: KubeletReady
      status: "True"
      type: Ready
    images:
    - names:
      - registry.k8s.io/pause:3.9
      sizeBytes: 321520
    nodeInfo:
      kubeletVersion: v1.31.2
`

// TestRealNodeKeepsEverythingNFDDoesNotOwnByteForByte checks issue 14
// point 2: a Node as kubectl prints it is patched the way nfd-master
// patches it, and every other line of it comes out as it went in.
func TestRealNodeKeepsEverythingNFDDoesNotOwnByteForByte(t *testing.T) {
	out, code := runList(t, "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"+oneNodeItems+kubectlNode)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	start := strings.Index(out, "- apiVersion: v1\n  kind: Node\n")
	if start < 0 {
		t.Fatalf("no Node in the output:\n%s", out)
	}
	got := out[start:]
	var kept []string
	for _, line := range strings.Split(got, "\n") {
		if !strings.Contains(line, "feature.node.kubernetes.io/") && !strings.Contains(line, "nfd.node.kubernetes.io/") {
			kept = append(kept, line)
		}
	}
	if want := strings.TrimSuffix(kubectlNode, "\n"); !strings.HasPrefix(strings.Join(kept, "\n"), want) {
		t.Errorf("the Node's own lines changed:\n%s\nwant\n%s", strings.Join(kept, "\n"), want)
	}
	if !strings.Contains(got, "feature.node.kubernetes.io/kernel-six: \"true\"") {
		t.Errorf("the Node did not get the rule's label:\n%s", got)
	}
}
