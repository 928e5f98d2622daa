package explain

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

var ruleObj = engine.ObjectRef{Kind: api.KindNodeFeatureRule, Name: "gpu"}

func src(field, name string) engine.Source {
	return engine.Source{Object: ruleObj, Field: field, RuleName: name}
}

func TestSelectedByRuleNameOrObjectSlashRuleName(t *testing.T) {
	tr := &engine.RuleTrace{Source: src("spec.rules[0]", "nvidia")}
	tests := []struct {
		filter string
		want   bool
	}{
		{"", true},
		{"nvidia", true},
		{"gpu/nvidia", true},
		{"other/nvidia", false},
		{"nvid", false},
		{"gpu", false},
	}
	for _, tc := range tests {
		if got := Selected(tr, tc.filter); got != tc.want {
			t.Errorf("Selected(%q) = %v, want %v", tc.filter, got, tc.want)
		}
	}
}

func TestRuleExplainsMatchersTermsExpressionsAndOutput(t *testing.T) {
	tests := []struct {
		name string
		tr   engine.RuleTrace
		want string
	}{
		{
			name: "matched-rule-with-output-sorted",
			tr: engine.RuleTrace{Source: src("spec.rules[0]", "nvidia"), Matched: true,
				Matchers: []engine.MatcherTrace{{Field: "spec.rules[0].matchFeatures", Matched: true, Terms: []engine.TermTrace{
					{Feature: "pci.device", Present: true, Matched: true, Exprs: []engine.ExprTrace{
						{Element: "vendor", Op: api.MatchIn, Values: []string{"10de", "1002"}, Matched: true,
							Seen: []string{`instance 0 "10de" true`, `instance 1 "8086" false`}},
					}},
				}}},
				Output: engine.Output{
					Labels:            map[string]string{"gpu": "true", "a-first": "1"},
					Vars:              map[string]string{"v": "x"},
					Annotations:       map[string]string{"note": "n"},
					ExtendedResources: map[string]string{"gpus": "2"},
					Taints:            []api.Taint{{Key: "example.com/gpu", Value: "yes", Effect: "NoSchedule"}},
				}},
			want: `NodeFeatureRule gpu spec.rules[0] "nvidia": matched
├─ matchFeatures: matched
│  └─ pci.device: matched
│     └─ vendor In [10de, 1002]: true (saw instance 0 "10de" true, instance 1 "8086" false)
├─ labels: a-first=1, gpu=true
├─ vars: v=x
├─ annotations: note=n
├─ extendedResources: gpus=2
└─ taint: example.com/gpu=yes:NoSchedule
`,
		},
		{
			name: "not-matched-rule-prints-no-output",
			tr: engine.RuleTrace{Source: src("spec.rules[1]", "avx"),
				Output: engine.Output{Labels: map[string]string{"never": "shown"}},
				Matchers: []engine.MatcherTrace{{Field: "spec.rules[1].matchFeatures", Terms: []engine.TermTrace{
					{Feature: "cpu.cpuid", Present: true, Exprs: []engine.ExprTrace{
						{Element: "AVX512F", Op: api.MatchExists, Seen: []string{"absent"}},
					}},
					{Feature: "kernel.version", Present: true, Skipped: true},
				}}}},
			want: `NodeFeatureRule gpu spec.rules[1] "avx": not matched
└─ matchFeatures: not matched
   ├─ cpu.cpuid: not matched
   │  └─ AVX512F Exists: false (saw absent)
   └─ kernel.version: not evaluated (an earlier term failed)
`,
		},
		{
			name: "absent-feature-and-matchany-branches",
			tr: engine.RuleTrace{Source: src("spec.rules[2]", "any"),
				Matchers: []engine.MatcherTrace{
					{Field: "spec.rules[2].matchAny[0].matchFeatures", Terms: []engine.TermTrace{{Feature: "usb.device"}}},
					{Field: "spec.rules[2].matchAny[1].matchFeatures", Terms: []engine.TermTrace{
						{Feature: "system.osrelease", Present: true},
					}},
				}},
			want: `NodeFeatureRule gpu spec.rules[2] "any": not matched
├─ matchAny[0].matchFeatures: not matched
│  └─ usb.device: not matched (the node has no usb.device feature)
└─ matchAny[1].matchFeatures: not matched
   └─ system.osrelease: not matched
      └─ (no expressions: matches when the feature has elements)
`,
		},
		{
			name: "failed-rule-unwraps-eval-error-and-shows-term-error",
			tr: engine.RuleTrace{Source: src("spec.rules[3]", "ver"),
				Err: &engine.EvalError{Object: ruleObj, RuleName: "ver", Err: errors.New(`not a number: "6.8"`)},
				Matchers: []engine.MatcherTrace{{Field: "spec.rules[3].matchFeatures", Terms: []engine.TermTrace{
					{Feature: "kernel.version", Present: true, Err: errors.New(`not a number: "6.8"`), Exprs: []engine.ExprTrace{
						{Element: "full", Op: api.MatchGt, Values: []string{"5"}, Err: errors.New(`not a number: "6.8"`), Seen: []string{`"6.8"`}},
					}},
				}}}},
			want: `NodeFeatureRule gpu spec.rules[3] "ver": FAILED: not a number: "6.8" (nfd-master skips the rule on this node)
└─ matchFeatures: not matched
   └─ kernel.version: error: not a number: "6.8"
      └─ full Gt [5]: error: not a number: "6.8" (saw "6.8")
`,
		},
		{
			name: "failed-rule-with-plain-error",
			tr:   engine.RuleTrace{Source: src("spec.rules[4]", "tpl"), Err: errors.New("boom")},
			want: `NodeFeatureRule gpu spec.rules[4] "tpl": FAILED: boom (nfd-master skips the rule on this node)
`,
		},
		{
			name: "matchname-lists-names-and-nothing",
			tr: engine.RuleTrace{Source: src("spec.rules[5]", "mn"),
				Matchers: []engine.MatcherTrace{{Field: "spec.rules[5].matchFeatures", Terms: []engine.TermTrace{
					{Feature: "cpu.cpuid", Present: true, Exprs: []engine.ExprTrace{
						{Op: api.MatchInRegexp, Values: []string{"^AVX"}, Matched: true, Seen: []string{"AVX", "AVX2"}},
						{Op: api.MatchIn, Values: []string{"NOPE"}},
					}},
				}}}},
			want: `NodeFeatureRule gpu spec.rules[5] "mn": not matched
└─ matchFeatures: not matched
   └─ cpu.cpuid: not matched
      ├─ matchName InRegexp [^AVX]: true (names matched AVX, AVX2)
      └─ matchName In [NOPE]: false (names matched nothing)
`,
		},
		{
			name: "seen-values-are-capped-at-eight",
			tr: engine.RuleTrace{Source: src("spec.rules[6]", "many"),
				Matchers: []engine.MatcherTrace{{Field: "spec.rules[6].matchFeatures", Terms: []engine.TermTrace{
					{Feature: "pci.device", Present: true, Exprs: []engine.ExprTrace{
						{Element: "class", Op: api.MatchExists, Seen: []string{"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9"}},
					}},
				}}}},
			want: `NodeFeatureRule gpu spec.rules[6] "many": not matched
└─ matchFeatures: not matched
   └─ pci.device: not matched
      └─ class Exists: false (saw i0, i1, i2, i3, i4, i5, i6, i7, ... 2 more)
`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Rule(&tc.tr); got != tc.want {
				t.Errorf("Rule() =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestLabelsNamesEachLabelsOrigin(t *testing.T) {
	tests := []struct {
		name string
		res  master.NodeResult
		want string
	}{
		{
			name: "no-labels",
			res:  master.NodeResult{Name: "n"},
			want: "labels:\n  (none)\n",
		},
		{
			name: "rule-nodefeature-and-foreign-labels-sorted",
			res: master.NodeResult{Name: "n",
				State: master.NodeState{Labels: map[string]string{
					"feature.node.kubernetes.io/gpu": "true",
					"feature.node.kubernetes.io/own": "x",
					"kubernetes.io/hostname":         "n",
				}},
				LabelOrigins: map[string]master.Origin{
					"feature.node.kubernetes.io/gpu": {Object: ruleObj, Field: "spec.rules[0].labels"},
					"feature.node.kubernetes.io/own": {Object: engine.ObjectRef{Kind: api.KindNodeFeature, Namespace: "nfd", Name: "n"}, Field: "spec.labels"},
				}},
			want: `labels:
  feature.node.kubernetes.io/gpu=true  (from NodeFeatureRule gpu spec.rules[0].labels)
  feature.node.kubernetes.io/own=x  (from NodeFeature nfd/n spec.labels)
  kubernetes.io/hostname=n  (already on the Node, not managed by NFD)
`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Labels(&tc.res); got != tc.want {
				t.Errorf("Labels() =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestWriteCountsOnlySelectedRules(t *testing.T) {
	traces := []engine.RuleTrace{
		{Source: src("spec.rules[0]", "a"), Matched: true},
		{Source: src("spec.rules[1]", "b")},
		{Source: engine.Source{Object: engine.ObjectRef{Kind: api.KindNodeFeatureRule, Name: "other"}, Field: "spec.rules[0]", RuleName: "a"}, Matched: true},
	}
	res := &master.NodeResult{Name: "node-1", State: master.NodeState{Labels: map[string]string{"x": "1"}}}
	tests := []struct {
		filter string
		want   string
	}{
		{"", "node node-1: 2 of 3 rules matched\n\n" +
			"NodeFeatureRule gpu spec.rules[0] \"a\": matched\n\n" +
			"NodeFeatureRule gpu spec.rules[1] \"b\": not matched\n\n" +
			"NodeFeatureRule other spec.rules[0] \"a\": matched\n\n" +
			"labels:\n  x=1  (already on the Node, not managed by NFD)\n"},
		{"a", "node node-1: 2 of 2 rules matched\n\n" +
			"NodeFeatureRule gpu spec.rules[0] \"a\": matched\n\n" +
			"NodeFeatureRule other spec.rules[0] \"a\": matched\n\n" +
			"labels:\n  x=1  (already on the Node, not managed by NFD)\n"},
		{"gpu/b", "node node-1: 0 of 1 rules matched\n\n" +
			"NodeFeatureRule gpu spec.rules[1] \"b\": not matched\n\n" +
			"labels:\n  x=1  (already on the Node, not managed by NFD)\n"},
		{"missing", "node node-1: 0 of 0 rules matched\n\n" +
			"labels:\n  x=1  (already on the Node, not managed by NFD)\n"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("filter=%q", tc.filter), func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, res, traces, tc.filter); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("Write() =\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteReturnsTheWriterError(t *testing.T) {
	err := Write(failingWriter{}, &master.NodeResult{Name: "n"}, []engine.RuleTrace{{Source: src("spec.rules[0]", "a")}}, "")
	if err == nil || err.Error() != "disk full" {
		t.Errorf("Write() error = %v, want disk full", err)
	}
}

func TestRuleOnARealTraceShowsWhatEachExpressionSaw(t *testing.T) {
	s := &objects.Set{}
	ds := testkit.ReadText(s, []byte(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata: {name: n1, namespace: node-feature-discovery, labels: {nfd.node.kubernetes.io/node-name: n1}}
spec:
  features:
    flags: {cpu.cpuid: {elements: {AVX: {}}}}
    attributes: {kernel.version: {elements: {major: "6"}}}
    instances: {pci.device: {elements: [{attributes: {vendor: "8086"}}, {attributes: {class: "0300"}}]}}
---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: r}
spec:
  rules:
  - name: all
    labels: {ok: "true"}
    matchFeatures:
    - feature: cpu.cpuid
      matchExpressions: {AVX: {op: Exists}, AVX512F: {op: DoesNotExist}}
    - feature: kernel.version
      matchExpressions: {major: {op: Gt, value: ["5"]}}
    - feature: pci.device
      matchExpressions: {vendor: {op: In, value: ["8086"]}}
`), "in.yaml", false)
	if len(ds) != 0 {
		t.Fatal(ds.Error())
	}
	res, traces, ok := master.Prepare(s, master.DefaultOptions()).Explain("n1")
	if !ok || len(traces) != 1 {
		t.Fatalf("Explain: ok=%v, %d traces", ok, len(traces))
	}
	want := `NodeFeatureRule r spec.rules[0] "all": matched
├─ matchFeatures: matched
│  ├─ cpu.cpuid: matched
│  │  ├─ AVX Exists: true (saw present)
│  │  └─ AVX512F DoesNotExist: true (saw absent)
│  ├─ kernel.version: matched
│  │  └─ major Gt [5]: true (saw "6")
│  └─ pci.device: matched
│     └─ vendor In [8086]: true (saw instance 0 "8086" true, instance 1 absent false)
└─ labels: ok=true
`
	if got := Rule(&traces[0]); got != want {
		t.Errorf("Rule() =\n%s\nwant\n%s", got, want)
	}
	if got, want := Labels(&res), "labels:\n  feature.node.kubernetes.io/ok=true  (from NodeFeatureRule r spec.rules[0].labels)\n"; got != want {
		t.Errorf("Labels() =\n%s\nwant\n%s", got, want)
	}
}

// TestHostileNamesAndValuesAreEscaped checks that names and values from
// the input cannot rewrite the reader's terminal: explain's text escapes
// control characters and bidi overrides wherever they are interpolated.
func TestHostileNamesAndValuesAreEscaped(t *testing.T) {
	const evil = "x\n\x1b[2J\u202e"
	tr := engine.RuleTrace{Source: engine.Source{Object: engine.ObjectRef{Kind: api.KindNodeFeatureRule, Name: evil}, Field: "spec.rules[0]", RuleName: evil},
		Matched: true, Output: engine.Output{Labels: map[string]string{evil: evil}},
		Matchers: []engine.MatcherTrace{{Field: "spec.rules[0].matchFeatures", Matched: true, Terms: []engine.TermTrace{{
			Feature: evil, Present: true, Matched: true,
			Exprs: []engine.ExprTrace{{Element: evil, Op: api.MatchOp(evil), Values: []string{evil}, Seen: []string{evil}, Matched: true}}}}}}}
	res := &master.NodeResult{Name: evil, State: master.NodeState{Labels: map[string]string{evil: evil}}}
	var b bytes.Buffer
	if err := Write(&b, res, []engine.RuleTrace{tr}, ""); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"\x1b", "\u202e", "x\n"} {
		if bytes.Contains([]byte(out), []byte(bad)) {
			t.Errorf("explain text holds %q raw:\n%s", bad, out)
		}
	}
}
