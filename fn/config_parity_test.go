package fn

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// configList is a ResourceList with a ConfigMap functionConfig holding
// data (flow style) and the items.
func configList(data, items string) string {
	return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n" +
		"  metadata: {name: c}\n  data: " + data + "\nitems:\n" + items
}

// TestInstanceNameAsNfdMasterAcceptsIt covers issue 13 point 11 for the
// instance: nfd-master accepts dots and underscores; nfd-fn refuses only
// what nfd-master refuses, and warns when the annotations it names would
// not be valid.
func TestInstanceNameAsNfdMasterAcceptsIt(t *testing.T) {
	tests := []struct {
		instance string
		code     int
		want     string
	}{
		{"blue.team", 0, ""},
		{"blue-2", 0, ""},
		{"blue_team", 0, "warning"},
		{"-blue", 1, "invalid instance name"},
	}
	for _, tt := range tests {
		t.Run(tt.instance, func(t *testing.T) {
			out, code := runList(t, configList(`{instance: "`+tt.instance+`"}`, oneNodeItems))
			if code != tt.code {
				t.Fatalf("exit %d, want %d:\n%s", code, tt.code, out)
			}
			has := strings.Contains(out, "data.instance")
			if has != (tt.want != "") || (tt.want != "" && !strings.Contains(out, tt.want)) {
				t.Errorf("result about data.instance = %v, want %q:\n%s", has, tt.want, out)
			}
		})
	}
}

// TestNamespaceSelectorReadsNamespaceItems covers issue 13 point 10 end to
// end: the selector key and v1 Namespace items, as a cluster export has
// them.
func TestNamespaceSelectorReadsNamespaceItems(t *testing.T) {
	items := `- apiVersion: v1
  kind: Namespace
  metadata: {name: vendor, labels: {trusted: "no"}}
- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: vendor-extra
    namespace: vendor
    labels: {nfd.node.kubernetes.io/node-name: n1}
  spec:
    labels: {vendor-label: "true"}
` + oneNodeItems
	for _, tt := range []struct {
		selector string
		want     bool
	}{{"", true}, {"trusted=yes", false}, {"trusted=no", true}} {
		out, code := runList(t, configList(`{nodeFeatureNamespaceSelector: "`+tt.selector+`"}`, items))
		if code != 0 {
			t.Fatalf("selector %q: exit %d:\n%s", tt.selector, code, out)
		}
		if got := strings.Contains(out, "feature.node.kubernetes.io/vendor-label"); got != tt.want {
			t.Errorf("selector %q: vendor label present = %v, want %v", tt.selector, got, tt.want)
		}
	}
	if out, code := runList(t, configList(`{nodeFeatureNamespaceSelector: "a in (b"}`, items)); code != 1 || !strings.Contains(out, "invalid label selector") {
		t.Errorf("a broken selector: exit %d:\n%s", code, out)
	}
}

// TestIgnoreAcceptsKnownFindingsForTheRun checks the ignore key: findings
// of the checks it names are dropped, and one that silences nothing is a
// warning at the key.
func TestIgnoreAcceptsKnownFindingsForTheRun(t *testing.T) {
	items := oneNodeItems + `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata: {name: never}
  spec:
    rules:
    - name: no node has it
      labels: {never: "true"}
      matchFeatures:
      - feature: kernel.version
        matchExpressions:
          major: {op: In, value: ["2"]}
`
	before := testkit.Read(t, []byte(mustRun(t, configList(`{}`, items))))
	if len(before.WithCheck("matches-no-node")) != 1 {
		t.Fatalf("the input must give one matches-no-node finding: %+v", before.Results)
	}
	after := testkit.Read(t, []byte(mustRun(t, configList(`{ignore: "NFD020,label-conflict"}`, items))))
	if len(after.WithCheck("matches-no-node")) != 0 {
		t.Errorf("NFD020 still reported: %+v", after.Results)
	}
	unused := after.WithCheck("unused-suppression")
	if len(unused) != 1 || unused[0].Field.Path != "data.ignore" || !strings.Contains(unused[0].Message, "label-conflict") {
		t.Errorf("unused suppressions = %+v, want one for label-conflict at data.ignore", unused)
	}
}

func mustRun(t *testing.T, in string) string {
	t.Helper()
	out, code := runList(t, in)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	return out
}
