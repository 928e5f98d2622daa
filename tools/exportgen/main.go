// Command exportgen turns a fleetgen ResourceList into what
// `kubectl get nodes,nodefeatures,nodefeaturerules -A -o yaml` prints for
// the same cluster: a v1 List whose items start with one Node per
// NodeFeature, each with the metadata, spec and status (conditions,
// images, nodeInfo, addresses, capacity, allocatable) a real cluster
// reports, followed by the fleet's items. It is a benchmark input
// (make bench-fleet), not part of nfd-fn.
//
//	go run ./internal/exportgen < fleet-1000.yaml > export-1000.yaml
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail(err)
	}
	header, items, ok := bytes.Cut(in, []byte("\nitems:\n"))
	if !ok || !bytes.Contains(header, []byte("kind: ResourceList")) {
		fail(fmt.Errorf("stdin is not a block-style ResourceList with items"))
	}
	names := regexp.MustCompile(`(?m)^      nfd\.node\.kubernetes\.io/node-name: (\S+)$`).FindAllSubmatch(items, -1)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	w.WriteString("apiVersion: v1\nitems:\n")
	for i, m := range names {
		writeNode(w, string(m[1]), i)
	}
	w.Write(items)
	w.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	if err := w.Flush(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "exportgen:", err)
	os.Exit(1)
}

// writeNode writes a Node as kubectl prints it, in its field order.
func writeNode(w *bufio.Writer, name string, i int) {
	fmt.Fprintf(w, `- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      csi.volume.kubernetes.io/nodeid: '{"ebs.csi.aws.com":"i-0%015x"}'
      node.alpha.kubernetes.io/ttl: "0"
      volumes.kubernetes.io/controller-managed-attach-detach: "true"
    creationTimestamp: "2025-03-11T08:21:44Z"
    labels:
      beta.kubernetes.io/arch: amd64
      beta.kubernetes.io/os: linux
      kubernetes.io/arch: amd64
      kubernetes.io/hostname: %[2]s
      kubernetes.io/os: linux
      node-role.kubernetes.io/worker: ""
      topology.kubernetes.io/zone: zone-%[3]d
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:annotations:
            .: {}
            f:node.alpha.kubernetes.io/ttl: {}
            f:volumes.kubernetes.io/controller-managed-attach-detach: {}
          f:labels:
            .: {}
            f:kubernetes.io/arch: {}
            f:kubernetes.io/hostname: {}
            f:kubernetes.io/os: {}
        f:spec:
          f:podCIDR: {}
          f:podCIDRs:
            .: {}
            v:"10.%[4]d.%[5]d.0/24": {}
          f:providerID: {}
      manager: kubelet
      operation: Update
      time: "2025-03-11T08:21:44Z"
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:status:
          f:conditions:
            k:{"type":"Ready"}:
              f:lastHeartbeatTime: {}
              f:lastTransitionTime: {}
              f:message: {}
              f:reason: {}
              f:status: {}
          f:images: {}
          f:nodeInfo:
            f:bootID: {}
      manager: kubelet
      operation: Update
      subresource: status
      time: "2025-11-24T06:00:00Z"
    name: %[2]s
    resourceVersion: "%[6]d"
    uid: 6b0f4f8e-3c1d-4b0b-9a0e-%012[1]x
  spec:
    podCIDR: 10.%[4]d.%[5]d.0/24
    podCIDRs:
    - 10.%[4]d.%[5]d.0/24
    providerID: aws:///zone-%[3]d/i-0%015[1]x
  status:
    addresses:
    - address: 10.0.%[4]d.%[5]d
      type: InternalIP
    - address: %[2]s
      type: Hostname
    allocatable:
      cpu: "95"
      ephemeral-storage: "1727927408374"
      hugepages-1Gi: "0"
      hugepages-2Mi: "0"
      memory: 1045988288Ki
      pods: "110"
    capacity:
      cpu: "96"
      ephemeral-storage: 1874933208Ki
      hugepages-1Gi: "0"
      hugepages-2Mi: "0"
      memory: 1056474048Ki
      pods: "110"
    conditions:
`, i, name, i%3, i/250, i%250, 48213377+i)
	for _, c := range [][4]string{
		{"MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
		{"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
		{"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
		{"Ready", "True", "KubeletReady", "kubelet is posting ready status"},
	} {
		fmt.Fprintf(w, `    - lastHeartbeatTime: "2025-11-24T06:00:00Z"
      lastTransitionTime: "2025-03-11T08:22:15Z"
      message: %s
      reason: %s
      status: "%s"
      type: %s
`, c[3], c[2], c[1], c[0])
	}
	w.WriteString("    daemonEndpoints:\n      kubeletEndpoint:\n        Port: 10250\n    images:\n")
	for j := range 20 {
		fmt.Fprintf(w, `    - names:
      - registry.example.com/team-%[1]d/service-%[1]d@sha256:%064[2]x
      - registry.example.com/team-%[1]d/service-%[1]d:v1.%[1]d.0
      sizeBytes: %[3]d
`, j, j*7919+i, 30_000_000+j*1_234_567)
	}
	fmt.Fprintf(w, `    nodeInfo:
      architecture: amd64
      bootID: b3c0a5e2-1111-2222-3333-%012[1]x
      containerRuntimeVersion: containerd://1.7.22
      kernelVersion: 5.15.0-119-generic
      kubeProxyVersion: v1.31.2
      kubeletVersion: v1.31.2
      machineID: %032[1]x
      operatingSystem: linux
      osImage: Ubuntu 22.04.5 LTS
      systemUUID: 4c4c4544-0031-3410-8051-%012[1]x
`, i)
}
