package objects

import (
	"strings"
	"testing"
)

// exported is a NodeFeatureRule as `kubectl get -o yaml` prints it: every
// field of metadata the API server writes, and a status.
const exported = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"nfd.k8s-sigs.io/v1alpha1","kind":"NodeFeatureRule","metadata":{"annotations":{},"name":"gpu"},"spec":{}}
  creationTimestamp: "2025-03-01T10:00:00Z"
  deletionGracePeriodSeconds: 0
  deletionTimestamp: "2025-03-02T10:00:00Z"
  finalizers: [example.com/keep]
  generateName: gpu-
  generation: 3
  managedFields:
  - apiVersion: nfd.k8s-sigs.io/v1alpha1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        .: {}
        f:rules: {}
    manager: kubectl-client-side-apply
    operation: Update
    time: "2025-03-01T10:00:00Z"
  name: gpu
  ownerReferences:
  - apiVersion: v1
    kind: Pod
    name: nfd-worker-abcde
    uid: 0b7e3e0c-5d0a-4f0e-9a55-5f5a1f1c2d3e
    controller: true
  resourceVersion: "123456"
  selfLink: /apis/nfd.k8s-sigs.io/v1alpha1/nodefeaturerules/gpu
  uid: 4a3b2c1d-0000-4000-8000-000000000001
spec:
  rules:
  - name: gpu
    labels: {gpu: "true"}
status: {}
`

// TestServerWrittenMetadataIsAccepted checks that an object read back
// from a cluster decodes cleanly: the whole of metav1.ObjectMeta and a
// status are accepted.
func TestServerWrittenMetadataIsAccepted(t *testing.T) {
	s := &Set{}
	if ds := readText(s, []byte(exported), "export.yaml", false); len(ds) != 0 {
		t.Fatalf("diagnostics:\n%s", ds.Error())
	}
	if len(s.Rules) != 1 || s.Rules[0].Rejected || s.Rules[0].Obj.Spec.Rules[0].Labels["gpu"] != "true" {
		t.Errorf("rules = %+v", s.Rules)
	}
}

// TestStrictnessStaysWhereItHelps checks that a misspelt metadata key and
// an unknown spec field are still errors with a did-you-mean.
func TestStrictnessStaysWhereItHelps(t *testing.T) {
	for _, tt := range []struct{ from, to, field string }{
		{"  name: gpu\n", "  name: gpu\n  lables: {a: b}\n", `metadata.lables: unknown field "lables": did you mean "labels"?`},
		{"    labels: {gpu: \"true\"}\n", "    labels: {gpu: \"true\"}\n    lables: {x: y}\n", `spec.rules[0].lables: unknown field "lables": did you mean "labels"?`},
	} {
		s := &Set{}
		ds := readText(s, []byte(strings.Replace(exported, tt.from, tt.to, 1)), "export.yaml", false)
		if len(ds) != 1 || !strings.Contains(ds[0].Field+": "+ds[0].Message, tt.field) {
			t.Errorf("diagnostics = %v, want one at %s", ds, tt.field)
		}
	}
}
