package fn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// caseExpectation is expected.json: the node state the reference engine
// (NFD v0.19) produced.
type caseExpectation struct {
	Nodes map[string]struct {
		Labels            map[string]string   `json:"labels"`
		Annotations       map[string]string   `json:"annotations"`
		ExtendedResources map[string]string   `json:"extendedResources"`
		Taints            []map[string]string `json:"taints"`
		Capacity          map[string]string   `json:"capacity"`
		Allocatable       map[string]string   `json:"allocatable"`
		Errors            []string            `json:"errors"`
	} `json:"nodes"`
	Groups map[string][]string `json:"groups"`
}

// renderedList is our output read back the way kubectl reads YAML.
type renderedList struct {
	Items []struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name        string            `json:"name"`
			Namespace   string            `json:"namespace"`
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
		Spec struct {
			Taints []map[string]string `json:"taints"`
		} `json:"spec"`
		Status struct {
			Capacity    map[string]string   `json:"capacity"`
			Allocatable map[string]string   `json:"allocatable"`
			Nodes       []map[string]string `json:"nodes"`
		} `json:"status"`
	} `json:"items"`
	Results []map[string]any `json:"results"`
}

// TestConformanceMatchesReferenceEngine runs every case from
// testdata/oracle-random (random cases) and testdata/oracle-wild (vendors'
// rule files over realistic fleets, some exported from a cluster), both
// copies of the shared conformance corpus, and compares the rendered
// Nodes and groups with nfd-master's output.
func TestConformanceMatchesReferenceEngine(t *testing.T) {
	random, err := filepath.Glob("../testdata/oracle-random/case-*")
	wild, _ := filepath.Glob("../testdata/oracle-wild/case-*")
	dirs := append(random, wild...)
	if err != nil || len(random) == 0 || len(wild) == 0 {
		t.Fatalf("no conformance cases found: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var want caseExpectation
			readJSON(t, filepath.Join(dir, "expected.json"), &want)
			var out bytes.Buffer
			if _, err := Run(input, &out, RunOptions{}); err != nil {
				t.Fatalf("Run: %v", err)
			}
			var got renderedList
			if err := yaml.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("output is not a ResourceList: %v", err)
			}
			for _, p := range compareCase(&want, &got) {
				t.Error(p)
			}
		})
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func compareCase(want *caseExpectation, got *renderedList) []string {
	var problems []string
	nodes := map[string]int{}
	groups := map[string][]string{}
	for i, it := range got.Items {
		switch {
		case it.APIVersion == "v1" && it.Kind == "Node":
			nodes[it.Metadata.Name] = i
		case it.Kind == "NodeFeatureGroup":
			key := it.Metadata.Namespace + "/" + it.Metadata.Name
			groups[key] = []string{}
			for _, n := range it.Status.Nodes {
				groups[key] = append(groups[key], n["name"])
			}
		}
	}
	anyErrors := false
	for name, w := range want.Nodes {
		anyErrors = anyErrors || len(w.Errors) > 0
		i, ok := nodes[name]
		if !ok {
			if len(w.Labels)+len(w.ExtendedResources)+len(w.Taints) > 0 {
				problems = append(problems, "no Node in output for "+name)
			}
			continue
		}
		n := got.Items[i]
		if !equalMaps(n.Metadata.Labels, w.Labels) {
			problems = append(problems, fmt.Sprintf("%s labels: got %v, want %v", name, n.Metadata.Labels, w.Labels))
		}
		wantCap, wantAlloc := w.ExtendedResources, w.ExtendedResources
		if w.Capacity != nil {
			wantCap, wantAlloc = w.Capacity, w.Allocatable
		}
		if !sameQuantities(n.Status.Capacity, wantCap) || !sameQuantities(n.Status.Allocatable, wantAlloc) {
			problems = append(problems, fmt.Sprintf("%s resources: got %v / %v, want %v / %v", name, n.Status.Capacity, n.Status.Allocatable, wantCap, wantAlloc))
		}
		if g, wt := taintSet(n.Spec.Taints), taintSet(w.Taints); !reflect.DeepEqual(g, wt) {
			problems = append(problems, fmt.Sprintf("%s taints: got %v, want %v", name, g, wt))
		}
		problems = append(problems, compareAnnotations(name, n.Metadata.Annotations, w.Annotations)...)
	}
	for key, w := range want.Groups {
		g := groups[key]
		sort.Strings(g)
		sort.Strings(w)
		if !(len(g) == 0 && len(w) == 0) && !reflect.DeepEqual(g, w) {
			problems = append(problems, fmt.Sprintf("group %s: got %v, want %v", key, g, w))
		}
	}
	if anyErrors && len(got.Results) == 0 {
		problems = append(problems, "the reference engine reported rule errors but there are no results")
	}
	return problems
}

func compareAnnotations(node string, got, want map[string]string) []string {
	var problems []string
	for k, w := range want {
		g := got[k]
		if strings.HasPrefix(k, "nfd.node.kubernetes.io/") || strings.Contains(k, ".nfd.node.kubernetes.io/") {
			g, w = sortedList(g), sortedList(w)
		}
		if g != w {
			problems = append(problems, fmt.Sprintf("%s annotation %s: got %q, want %q", node, k, g, w))
		}
	}
	for k := range got {
		managed := strings.Contains(k, "nfd.node.kubernetes.io/") || strings.Contains(k, "feature.node.kubernetes.io/")
		if _, ok := want[k]; !ok && managed {
			problems = append(problems, fmt.Sprintf("%s: unexpected annotation %s", node, k))
		}
	}
	return problems
}

func sortedList(s string) string {
	parts := strings.Split(s, ",")
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func equalMaps(a, b map[string]string) bool {
	return (len(a) == 0 && len(b) == 0) || reflect.DeepEqual(a, b)
}

func sameQuantities(got, want map[string]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			return false
		}
		if g == w {
			continue
		}
		qg, err1 := resource.ParseQuantity(g)
		qw, err2 := resource.ParseQuantity(w)
		if err1 != nil || err2 != nil || qg.Cmp(qw) != 0 {
			return false
		}
	}
	return true
}

func taintSet(ts []map[string]string) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t["key"]+"="+t["value"]+":"+t["effect"])
	}
	sort.Strings(out)
	return out
}

// renderTwice runs input, then the first output without its results, and
// returns both outputs.
func renderTwice(t *testing.T, input []byte) (first, second []byte) {
	t.Helper()
	first = runForTest(t, input)
	return first, runForTest(t, stripResults(t, first))
}

// TestRenderIsIdempotent checks that rendering the output again changes
// nothing, byte for byte, on every conformance case.
func TestRenderIsIdempotent(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/oracle-random/case-*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			first, second := renderTwice(t, input)
			if !bytes.Equal(stripResults(t, second), stripResults(t, first)) {
				t.Errorf("second run changed the output:\n--- first\n%s\n--- second\n%s", first, second)
			}
		})
	}
}

// stripResults drops the results section, which a second run repeats.
func stripResults(t *testing.T, b []byte) []byte {
	t.Helper()
	if i := bytes.Index(b, []byte("\nresults:\n")); i >= 0 {
		return b[:i+1]
	}
	return b
}
