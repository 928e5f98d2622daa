package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// releaseNodeFeature is a NodeFeature nfd-worker v0.18.3 wrote.
const releaseNodeFeature = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata:
  name: node-1
  namespace: node-feature-discovery
  labels: {nfd.node.kubernetes.io/node-name: node-1}
  annotations: {nfd.node.kubernetes.io/worker.version: v0.18.3}
spec:
  features:
    flags: {}
    attributes:
      kernel.version: {elements: {major: "6"}}
    instances: {}
  labels: {}
`

// releaseGroup is a NodeFeatureGroup outside nfd-master's namespace
// (NFD054) whose rule uses Ge, which v0.17's API server refuses.
const releaseGroup = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureGroup
metadata: {name: kernel-6, namespace: default}
spec:
  featureGroupRules:
  - name: k6
    matchFeatures:
    - feature: kernel.version
      matchExpressions:
        major: {op: Ge, value: ["6"]}
`

// masterDeployment is an nfd-master Deployment running image.
func masterDeployment(image string) string {
	return testkit.NFDWorkload("Deployment", "nfd-master", image)
}

// TestReleaseDetectionSaysSo is issue 34's "release detection that says
// so": an OpenShift operand pinned by digest or tagged v4.19 is a warning
// naming the image and nfdVersion, at the Deployment's line; messages
// name the release rendered as and the setting that chose it; NFD302
// points at the file that showed the release; validate reads the release
// from a Deployment among its files as render does.
func TestReleaseDetectionSaysSo(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	dir := t.TempDir()
	digest := "registry.redhat.io/openshift4/ose-node-feature-discovery-rhel9@sha256:" + strings.Repeat("ab", 32)
	testkit.WriteFiles(t, dir, map[string]string{
		"nodefeature.yaml":       releaseNodeFeature,
		"group.yaml":             releaseGroup,
		"group-in.yaml":          strings.Replace(releaseGroup, "op: Ge", "op: In", 1),
		"digest/master.yaml":     masterDeployment(digest),
		"ocp419/master.yaml":     masterDeployment("registry.redhat.io/openshift4/ose-node-feature-discovery-rhel9:v4.19"),
		"upstream17/master.yaml": masterDeployment("registry.k8s.io/nfd/node-feature-discovery:v0.17.1-minimal"),
	})
	validate := func(args ...string) string {
		t.Helper()
		stdout, stderr, _ := run(t, dir, commandEnv(nil), nil, bin, append([]string{"validate"}, args...)...)
		return stdout + stderr
	}
	t.Run("digest-pinned-openshift-operand", func(t *testing.T) {
		out := validate("nodefeature.yaml", "digest/master.yaml")
		want := "digest/master.yaml:11:16: warning: Deployment/nfd-master spec.template.spec.containers[0].image: the Deployment nfd-master (image " + digest +
			") is OpenShift's NFD operand pinned by digest, which does not name its release, so nfd-fn cannot tell the NFD release the cluster runs: rendering as NFD v0.18.3 (nfdVersion unset; the input shows it); set nfdVersion"
		if !strings.Contains(out, want) || !strings.Contains(out, "[NFD305]") {
			t.Errorf("no NFD305 at the image:\n%s\nwant\n%s", out, want)
		}
	})
	t.Run("openshift-4.19-has-no-profile", func(t *testing.T) {
		out := validate("ocp419/master.yaml", "group.yaml")
		if !strings.Contains(out, "ocp419/master.yaml:11:16: warning:") || !strings.Contains(out, "OpenShift's NFD operand of OpenShift 4.19, for which nfd-fn has no profile") ||
			!strings.Contains(out, "rendering as NFD v0.19.0 (nfd-fn's default: nfdVersion unset)") {
			t.Errorf("no NFD305 for OpenShift 4.19:\n%s", out)
		}
	})
	t.Run("nfdVersion-given-needs-no-warning", func(t *testing.T) {
		if out := validate("--nfd-version", "openshift-4.20", "digest/master.yaml", "group.yaml"); strings.Contains(out, "NFD305") {
			t.Errorf("NFD305 although --nfd-version was given:\n%s", out)
		}
	})
	t.Run("messages-name-the-release-and-the-setting", func(t *testing.T) {
		out := validate("--nfd-version", "v0.17.1", "nodefeature.yaml", "group-in.yaml")
		wantAll(t, out,
			"nodefeature.yaml:1:1: warning: NodeFeature/node-1: rendering as NFD v0.17.1 (--nfd-version), but the nfd.node.kubernetes.io/worker.version annotation of 1 NodeFeature(s) shows v0.18.3 [NFD303]",
			"nfd-master v0.17.1 (--nfd-version) looks groups up by name in its own namespace",
			"the default of NFD v0.17.1 (--nfd-version) leaves it off")
		if strings.Contains(out, "v0.19") {
			t.Errorf("a message names v0.19 under --nfd-version v0.17.1:\n%s", out)
		}
	})
	t.Run("validate-reads-the-release-from-a-deployment", func(t *testing.T) {
		wantAll(t, validate("upstream17", "group.yaml"),
			"upstream17/master.yaml:11:16: info: Deployment/nfd-master spec.template.spec.containers[0].image: rendering as NFD v0.17.1, the release the Deployment nfd-master (image registry.k8s.io/nfd/node-feature-discovery:v0.17.1-minimal) shows",
			`group.yaml:10:21: error: NodeFeatureGroup/kernel-6 spec.featureGroupRules[0].matchFeatures[0].matchExpressions.major.op: the API server of NFD v0.17.1 refuses this NodeFeatureGroup whole`)
	})
	t.Run("render-points-nfd302-at-the-file", func(t *testing.T) {
		list := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
			testkit.Item(masterDeployment("registry.k8s.io/nfd/node-feature-discovery:v0.18.3"), "deploy/nfd-master.yaml") +
			testkit.Item(releaseNodeFeature, "snapshot/node-1.yaml")
		out, stderr, _ := run(t, dir, commandEnv(nil), []byte(list), bin)
		got := testkit.Read(t, []byte(out)).WithCheck("release-assumed")
		if len(got) != 1 || got[0].File.Path != "deploy/nfd-master.yaml" || got[0].Field.Path != "spec.template.spec.containers[0].image" ||
			got[0].ResourceRef["kind"] != "Deployment" {
			t.Errorf("NFD302 = %+v, want it at deploy/nfd-master.yaml's image\n%s", got, stderr)
		}
	})
	t.Run("taint-note-under-kpt-asks-for-no-flag", func(t *testing.T) {
		rule := kernelRule("taints", kernelTerm{"t", `taints: [{key: example.com/t, value: "x", effect: NoSchedule}]`, "In"})
		list := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data: {mode: validate}\nitems:\n" +
			testkit.Item(rule, "rules.yaml")
		out, _, _ := run(t, dir, commandEnv(nil), []byte(list), bin)
		got := testkit.Read(t, []byte(out)).WithCheck("taint-disabled")
		if len(got) == 0 || strings.Contains(got[0].Message, "--config") || !strings.Contains(got[0].Message, "enableTaints") {
			t.Errorf("NFD030 = %+v, want a message a functionConfig user can follow", got)
		}
	})
}

// wantAll fails the test for each of wants out does not contain.
func wantAll(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
