package fn

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// ruleIn is a NodeFeatureRule at apiVersion labelling every node it
// matches kernel-six=true.
func ruleIn(apiVersion string) string {
	return strings.Replace(oneNodeItems, "- apiVersion: nfd.k8s-sigs.io/v1alpha1\n  kind: NodeFeatureRule", "- apiVersion: "+apiVersion+"\n  kind: NodeFeatureRule", 1)
}

// TestWrongAPIVersionIsAnErrorNamingBoth covers issue 14 point 5: an NFD
// kind at an apiVersion nfd-master does not serve is never skipped
// silently.
func TestWrongAPIVersionIsAnErrorNamingBoth(t *testing.T) {
	for _, v := range []string{"nfd.k8s-sigs.io/v1", "nfd.k8s-sigs.io/v1beta1"} {
		out, code := runList(t, "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"+ruleIn(v))
		got := testkit.Read(t, []byte(out))
		rs := got.WithCheck("api-version")
		if code != 1 || len(rs) != 1 || !strings.Contains(rs[0].Message, v) || !strings.Contains(rs[0].Message, "nfd.k8s-sigs.io/v1alpha1") {
			t.Errorf("%s: exit %d, api-version results %+v", v, code, rs)
		}
		if strings.Contains(out, "kernel-six") && strings.Contains(out, "feature.node.kubernetes.io/kernel-six") {
			t.Errorf("%s: the rule was applied", v)
		}
	}
}

// TestOpenShiftGroupIsReadAsNodeFeatureRule covers the one alias: vendors'
// OpenShift instructions write NodeFeatureRules as nfd.openshift.io/v1alpha1.
func TestOpenShiftGroupIsReadAsNodeFeatureRule(t *testing.T) {
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + ruleIn("nfd.openshift.io/v1alpha1")
	out, code := runList(t, in)
	got := testkit.Read(t, []byte(out))
	if code != 0 || len(got.WithCheck("api-version-alias")) != 1 || !strings.Contains(out, "feature.node.kubernetes.io/kernel-six") {
		t.Errorf("alias on: exit %d, output:\n%s", code, out)
	}
	out, code = runList(t, configList(`{openShiftAlias: "false"}`, ruleIn("nfd.openshift.io/v1alpha1")))
	if code != 1 || len(testkit.Read(t, []byte(out)).WithCheck("api-version")) != 1 || strings.Contains(out, "feature.node.kubernetes.io/kernel-six") {
		t.Errorf("alias off: exit %d, output:\n%s", code, out)
	}
}
