package plan

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// golden files are written from inside the fixture directory, so their
// paths are made absolute first.
func goldenPath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStaleNodeLabelsPlan: without --base, the plan is what applying the
// rules to the snapshot's Nodes would change: stale NFD labels removed,
// new ones added per node, a workload losing every node as an error.
func TestStaleNodeLabelsPlan(t *testing.T) {
	for _, r := range renderings {
		t.Run(r.name, func(t *testing.T) {
			paths := goldenPath(t, "stale-labels."+r.name+".golden")
			p := Make(fixtureInput(t, ""))
			golden.Check(t, paths, render(t, p, r.write))
		})
	}
}

// TestRuleChangePlan: with --base, the plan lists only what the rule
// change does; the stale labels both sides remove are not in it.
func TestRuleChangePlan(t *testing.T) {
	for _, r := range renderings {
		t.Run(r.name, func(t *testing.T) {
			paths := goldenPath(t, "rule-change."+r.name+".golden")
			p := Make(fixtureInput(t, "base"))
			golden.Check(t, paths, render(t, p, r.write))
		})
	}
}

func TestStaleLabelsAreRemovedPerNodeAndWorkloadsLoseAndGainNodes(t *testing.T) {
	p := Make(fixtureInput(t, ""))
	byName := map[string]NodeChange{}
	for _, n := range p.Nodes {
		byName[n.Name] = n
	}
	for _, name := range []string{"gpu-1", "gpu-2"} {
		if byName[name].Labels == nil || byName[name].Labels.Removed["feature.node.kubernetes.io/old-gpu"] != "true" {
			t.Errorf("%s: old-gpu not removed: %+v", name, byName[name].Labels)
		}
	}
	if byName["cpu-1"].Labels == nil || byName["cpu-1"].Labels.Added["feature.node.kubernetes.io/cpu-avx2"] != "true" {
		t.Errorf("cpu-1: cpu-avx2 not added: %+v", byName["cpu-1"].Labels)
	}
	var lost, gained bool
	for _, w := range p.Workloads {
		lost = lost || len(w.LostNodes) > 0
		gained = gained || len(w.GainedNodes) > 0
	}
	if !lost || !gained {
		t.Errorf("want workloads losing and gaining nodes: %+v", p.Workloads)
	}
	if p.ExitCode(true) != 1 {
		t.Errorf("exit code %d, want 1 (a workload is left with no node)", p.ExitCode(true))
	}
}

func TestEqualBaseAndHeadIsNoChange(t *testing.T) {
	p := Make(fixtureInput(t, "rules"))
	if p.HasChanges() || p.ExitCode(true) != 0 || p.ExitCode(false) != 0 {
		t.Fatalf("changes %+v %+v, exit %d", p.Nodes, p.Workloads, p.ExitCode(true))
	}
	text := string(render(t, p, renderings[0].write))
	if !strings.HasPrefix(text, "nfd-fn plan: no changes: the base and the head rules give every node the same") {
		t.Errorf("text:\n%s", text)
	}
}

func TestDifferentBaseAndHeadExitsTwo(t *testing.T) {
	p := Make(fixtureInput(t, "base"))
	if got := p.ExitCode(true); got != 2 {
		t.Errorf("detailed exit code %d, want 2", got)
	}
	if got := p.ExitCode(false); got != 0 {
		t.Errorf("exit code %d, want 0", got)
	}
}

func TestRerunsAreByteIdentical(t *testing.T) {
	in := fixtureInput(t, "base")
	first, second := Make(in), Make(in)
	for _, r := range renderings {
		if a, b := render(t, first, r.write), render(t, second, r.write); !bytes.Equal(a, b) {
			t.Errorf("%s differs between runs", r.name)
		}
	}
}

// TestJSONHasTheDocumentedShape decodes the JSON form generically and
// checks the keys the README documents.
func TestJSONHasTheDocumentedShape(t *testing.T) {
	p := Make(fixtureInput(t, ""))
	var doc struct {
		Nodes []struct {
			Name   string `json:"name"`
			Labels struct {
				Added   map[string]string `json:"added"`
				Removed map[string]string `json:"removed"`
			} `json:"labels"`
			Annotations struct {
				Changed map[string]struct{ Before, After string } `json:"changed"`
			} `json:"annotations"`
			ExtendedResources struct {
				Added map[string]string `json:"added"`
			} `json:"extendedResources"`
			Taints struct {
				Added []struct{ Key, Value, Effect string } `json:"added"`
			} `json:"taints"`
		} `json:"nodes"`
		Workloads []map[string]any `json:"workloads"`
		Summary   map[string]any   `json:"summary"`
	}
	if err := json.Unmarshal(render(t, p, renderings[2].write), &doc); err != nil {
		t.Fatal(err)
	}
	gpu1 := doc.Nodes[1]
	if gpu1.Name != "gpu-1" || gpu1.Labels.Removed["feature.node.kubernetes.io/old-gpu"] != "true" ||
		gpu1.ExtendedResources.Added["nvidia.com/gpu"] != "1" || len(gpu1.Taints.Added) != 1 ||
		gpu1.Annotations.Changed["nfd.node.kubernetes.io/feature-labels"].After != "cpu-avx2,nvidia.com/gpu.present" {
		t.Errorf("gpu-1: %+v", gpu1)
	}
	for _, key := range []string{"kind", "namespace", "name", "eligibleBefore", "eligibleAfter", "lostNodes", "gainedNodes"} {
		if _, ok := doc.Workloads[0][key]; !ok {
			t.Errorf("workload has no %q: %v", key, doc.Workloads[0])
		}
	}
	if doc.Summary["before"] != BeforeNodes || doc.Summary["workloadsWithoutNodes"] != 1.0 {
		t.Errorf("summary %v", doc.Summary)
	}
}

func TestTextIsColouredOnlyWhenAsked(t *testing.T) {
	p := Make(fixtureInput(t, ""))
	plain := render(t, p, renderings[0].write)
	coloured := render(t, p, func(b *bytes.Buffer, p *Plan) error { return WriteText(b, p, TextOptions{Color: true}) })
	if bytes.Contains(plain, []byte("\x1b[")) {
		t.Error("plain text has escape sequences")
	}
	for _, want := range []string{"\x1b[32m+ ", "\x1b[31m- ", "\x1b[33m~ ", "\x1b[31merror: "} {
		if !bytes.Contains(coloured, []byte(want)) {
			t.Errorf("coloured text lacks %q", want)
		}
	}
}

// TestBrokenRulesAreReportedWithTheirSide: a rule broken in the base is
// a warning saying so (the change did not break it); broken in the head,
// an error.
func TestBrokenRulesAreReportedWithTheirSide(t *testing.T) {
	in := fixtureInput(t, "base")
	broken := []byte(`apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: broken}
spec:
  rules:
    - name: bad template
      labelsTemplate: "{{ .cpu.cpuid.nope }"
      matchFeatures:
        - feature: cpu.cpuid
          matchExpressions: {AVX2: {op: Exists}}
`)
	testkit.ReadText(in.Base, broken, "base/broken.yaml", false)
	p := Make(in)
	if p.HasErrors() {
		t.Fatalf("a base-only problem should not be an error:\n%s", p.Diagnostics.Error())
	}
	if !strings.Contains(p.Diagnostics.Error(), "base/broken.yaml") || !strings.Contains(p.Diagnostics.Error(), BaseSidePrefix) {
		t.Errorf("the base problem is not named as the base side's:\n%s", p.Diagnostics.Error())
	}
	testkit.ReadText(in.Head, broken, "rules/broken.yaml", false)
	p = Make(in)
	var headErr bool
	for _, d := range p.Diagnostics {
		headErr = headErr || (d.Severity == diag.Error && d.Pos.File == "rules/broken.yaml" && !strings.HasPrefix(d.Message, BaseSidePrefix))
	}
	if !headErr {
		t.Errorf("no error at rules/broken.yaml:\n%s", p.Diagnostics.Error())
	}
	if strings.Contains(p.Diagnostics.Error(), BaseSidePrefix+"NodeFeatureRule") {
		t.Errorf("a problem both sides share is reported twice:\n%s", p.Diagnostics.Error())
	}
}

// TestTrackingAnnotationChangeIsAListDifference: two long tracking lists
// that differ past the clip width used to read as one unchanged value
// ("a,b,... -> a,b,..."); they show the names gained and lost.
func TestTrackingAnnotationChangeIsAListDifference(t *testing.T) {
	long := "cpu-cpuid.ADX,cpu-cpuid.AESNI,cpu-cpuid.AVX,cpu-cpuid.AVX2,cpu-cpuid.FMA3,cpu-cpuid.SHA"
	tests := []struct {
		name string
		c    Change
		want string
	}{
		{"lost-past-the-clip", Change{Field: Annotations, Op: Changed, Key: "nfd.node.kubernetes.io/feature-labels", Before: long + ",pci-10de.present", After: long, Values: 1},
			"nfd.node.kubernetes.io/feature-labels: -pci-10de.present"},
		{"gained-and-lost", Change{Field: Annotations, Op: Changed, Key: "nfd.node.kubernetes.io/extended-resources", Before: "a.io/x,b.io/y", After: "b.io/y,c.io/z", Values: 1},
			"nfd.node.kubernetes.io/extended-resources: +c.io/z, -a.io/x"},
		{"instance-prefixed", Change{Field: Annotations, Op: Changed, Key: "gpu.nfd.node.kubernetes.io/taints", Before: "k=v:NoSchedule", After: "", Values: 1},
			"gpu.nfd.node.kubernetes.io/taints: -k=v:NoSchedule"},
		{"many", Change{Field: Annotations, Op: Changed, Key: "nfd.node.kubernetes.io/feature-labels", Before: "", After: "a,b,c,d,e,f,g,h", Values: 1},
			"nfd.node.kubernetes.io/feature-labels: +a, +b, +c, +d, +e, +f, and 2 more"},
		{"other-annotation-stays-before-after", Change{Field: Annotations, Op: Changed, Key: "nfd.node.kubernetes.io/gpu-model", Before: "a,b", After: "a", Values: 1},
			"nfd.node.kubernetes.io/gpu-model: a,b -> a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Describe(mdClip); got != tt.want {
				t.Errorf("Describe = %q, want %q", got, tt.want)
			}
		})
	}
}
