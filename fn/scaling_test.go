package fn

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/growth"
)

// Issue 17 point 8: every list from the input that drives work costs
// work linear in its size. These tests run the same input through Run at
// n and 4n and compare the bytes and objects allocated (internal/growth).

// checkLinear runs input(n) and input(growth.Factor*n) through Run in
// mode and fails when the work grows faster than linearly.
func checkLinear(t *testing.T, n int, mode string, input func(n int) []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("growth test")
	}
	render := func(n int) func() {
		data := input(n)
		return func() {
			var out bytes.Buffer
			code, err := Run(data, &out, RunOptions{ForceMode: mode})
			if err != nil || code > 1 {
				t.Fatalf("Run: exit %d, %v", code, err)
			}
		}
	}
	growth.Check(t, fmt.Sprintf("items in mode %q", mode), n, render)
}

const listHeader = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"

// nodesWithOneErrorEach is n nodes (a NodeFeature and a Node object
// each), each with a label of its own nfd-master refuses, and one rule
// that fails on every node.
func nodesWithOneErrorEach(n int) []byte {
	var b strings.Builder
	b.WriteString(listHeader)
	for i := range n {
		fmt.Fprintf(&b, `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata: {name: node-%[1]d, namespace: node-feature-discovery, labels: {nfd.node.kubernetes.io/node-name: node-%[1]d}}
  spec:
    labels: {"bad key %[1]d": "x"}
    features: {attributes: {system.name: {elements: {nodename: node-%[1]d}}}}
- apiVersion: v1
  kind: Node
  metadata: {name: node-%[1]d, labels: {kubernetes.io/hostname: node-%[1]d}}
`, i)
	}
	b.WriteString(`- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata: {name: fails-everywhere}
  spec:
    rules:
    - name: bad-template
      labelsTemplate: "{{ .system.name.nodename }}"
      matchFeatures:
      - feature: system.name
        matchExpressions: {nodename: {op: Exists}}
`)
	return []byte(b.String())
}

// brokenRules is n NodeFeatureRules with a broken rule each (an unknown
// operator, a bad regexp, a template that does not parse), about 230
// bytes a rule: 40,000 are the 9 MB of issue 17.
func brokenRules(n int) []byte {
	var b strings.Builder
	b.WriteString(listHeader)
	for i := range n {
		fmt.Fprintf(&b, `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata: {name: rules-%[1]d}
  spec:
    rules:
    - name: rule-%[1]d
      labels: {"l%[1]d": "true"}
      labelsTemplate: "{{ .x"
      matchFeatures:
      - feature: kernel.version
        matchExpressions: {major: {op: inn, value: ["6"]}, minor: {op: InRegexp, value: ["("]}}
`, i)
	}
	return []byte(b.String())
}

func BenchmarkRenderNodesWithOneErrorEach(b *testing.B) {
	input := nodesWithOneErrorEach(2000)
	for b.Loop() {
		var out bytes.Buffer
		Run(input, &out, RunOptions{})
	}
}

func TestRenderIsLinearInNodesWithOneErrorEach(t *testing.T) {
	checkLinear(t, 250, "", nodesWithOneErrorEach)
}

func TestValidateIsLinearInNodesWithOneErrorEach(t *testing.T) {
	checkLinear(t, 250, "validate", nodesWithOneErrorEach)
}

func TestRenderIsLinearInBrokenRules(t *testing.T) {
	checkLinear(t, 250, "", brokenRules)
}

func TestValidateIsLinearInBrokenRules(t *testing.T) {
	checkLinear(t, 250, "validate", brokenRules)
}

func BenchmarkRenderBrokenRules(b *testing.B) {
	input := brokenRules(2000)
	for b.Loop() {
		var out bytes.Buffer
		Run(input, &out, RunOptions{})
	}
}
