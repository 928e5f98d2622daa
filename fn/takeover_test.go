package fn

import (
	"strings"
	"testing"
)

// masterLabelledNode is node a as `kubectl get node -o yaml
// --show-managed-fields` shows it once nfd-master labelled it: k6 from
// the rule still there, old from a rule since removed, each listed in
// nfd-master's managedFields entry.
const masterLabelledNode = `- apiVersion: v1
  kind: Node
  metadata:
    name: a
    annotations:
      nfd.node.kubernetes.io/feature-labels: k6,old
    labels:
      kubernetes.io/hostname: a
      feature.node.kubernetes.io/k6: "true"
      feature.node.kubernetes.io/old: "true"
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:spec:
          f:providerID: {}
      manager: kube-controller-manager
      operation: Update
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:annotations:
            f:nfd.node.kubernetes.io/feature-labels: {}
          f:labels:
            f:feature.node.kubernetes.io/k6: {}
            f:feature.node.kubernetes.io/old: {}
      manager: nfd-master
      operation: Update
  status:
    capacity: {cpu: "4"}
`

// TestRenderWarnsWhenNFDMasterOwnsWhatNFDFnWouldApply: render (and its
// apply output) warns (NFD314) about a Node whose managedFields show
// nfd-master owning fields nfd-fn writes, naming the fields it would
// share or, set to another value (the tracking annotation), conflict on,
// and the one a removed rule left, which nfd-fn's apply would orphan; a Node only kubelet
// manages gets no warning.
func TestRenderWarnsWhenNFDMasterOwnsWhatNFDFnWouldApply(t *testing.T) {
	got := runRelease(t, releaseList("", "", masterLabelledNode), RunOptions{})
	res := results(got)
	for _, want := range []string{
		"warning: this Node's managedFields show nfd-master (manager nfd-master, operation Update) owning fields nfd-fn writes",
		"2 fields nfd-fn sets too (label feature.node.kubernetes.io/k6; annotation nfd.node.kubernetes.io/feature-labels)",
		"conflicts on the others (the tracking annotations once a rule went)",
		"1 field nfd-fn's render removes (label feature.node.kubernetes.io/old) will be orphaned",
		"Taking over from nfd-master",
	} {
		if !strings.Contains(res, want) {
			t.Errorf("results lack %q:\n%s", want, res)
		}
	}
	var ids []string
	for _, r := range got.Results {
		if strings.Contains(r.Message, "managedFields show nfd-master") {
			ids = append(ids, r.Tags["checkID"]+" "+r.ResourceRef["kind"]+"/"+r.ResourceRef["name"]+" "+r.Field.Path)
		}
	}
	if len(ids) != 1 || ids[0] != "NFD314 Node/a metadata.managedFields" {
		t.Errorf("want one NFD314 warning on Node/a's metadata.managedFields, got %q", ids)
	}
	notMasters := strings.Replace(masterLabelledNode, "      manager: nfd-master\n", "      manager: kubectl-edit\n", 1)
	if res := results(runRelease(t, releaseList("", "", notMasters), RunOptions{})); strings.Contains(res, "managedFields show nfd-master") {
		t.Errorf("a Node nfd-master does not manage gets the warning:\n%s", res)
	}
}
