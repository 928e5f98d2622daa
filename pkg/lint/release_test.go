package lint

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

const recentRules = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: ge}
spec:
  rules:
  - name: ge
    labels: {k6: "true"}
    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Ge, value: ["6"]}}}]
---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: sprig}
spec:
  rules:
  - name: sprig
    labelsTemplate: '{{ range .cpu.cpuid }}{{ .Name | lower }}=true{{ end }}'
    matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX: {op: Exists}}}]
---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: old}
spec:
  rules:
  - name: old
    labels: {k5: "true"}
    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Gt, value: ["5"]}}}]
`

func needsFindings(t *testing.T, opts master.Options) []string {
	t.Helper()
	set := &objects.Set{}
	if ds := testkit.ReadText(set, []byte(recentRules), "rules.yaml", false); len(ds) > 0 {
		t.Fatal(ds)
	}
	return messages(Static(set, Options{Master: opts}), checkNeedsRelease)
}

func TestNeedsReleaseWarnsWhenTheReleaseIsAssumed(t *testing.T) {
	got := needsFindings(t, master.DefaultOptions())
	if len(got) != 2 ||
		!strings.HasPrefix(got[0], "ge spec.rules[0].matchFeatures[0].matchExpressions.major.op: this NodeFeatureRule needs NFD v0.18.0 or later (Ge)") ||
		!strings.HasPrefix(got[1], "sprig spec.rules[0].labelsTemplate: this NodeFeatureRule needs NFD v0.18.0 or later (Sprig lower)") {
		t.Errorf("findings:\n%s", strings.Join(got, "\n"))
	}
}

func TestNeedsReleaseIsQuietWhenTheReleaseIsGiven(t *testing.T) {
	opts := master.DefaultOptions()
	opts.Release, _ = release.Parse("v0.19.0")
	if got := needsFindings(t, opts); len(got) > 0 {
		t.Errorf("findings with a release given:\n%s", strings.Join(got, "\n"))
	}
}
