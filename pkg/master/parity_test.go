package master

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Issue 13: the places where nfd-master is surprising, one test per point.

// TestFailedStatusPatchLeavesTheNodeAsItWas covers point 4: nfd-master
// sends the extended-resource status patch first and stops when the API
// server refuses it, so the node keeps its labels, annotations and taints.
func TestFailedStatusPatchLeavesTheNodeAsItWas(t *testing.T) {
	tests := []struct {
		name   string
		opts   func(*Options)
		node   string
		rules  string
		reason string
	}{
		{
			name: "owned-stale-resource-in-capacity-but-not-allocatable",
			node: kubeNode("a", `labels: {team: x}, annotations: {`+an+`extended-resources: old}`, "",
				`{capacity: {cpu: "4", `+fl+`old: "1"}, allocatable: {cpu: "4"}}`),
			rules:  `  - {name: r, labels: {new: "1"}}` + "\n",
			reason: "removing " + fl + "old from status.allocatable",
		},
		{
			name: "replaced-resource-missing-from-allocatable",
			node: kubeNode("a", `labels: {team: x}, annotations: {`+an+`extended-resources: gpus}`, "",
				`{capacity: {cpu: "4", `+fl+`gpus: "1"}, allocatable: {cpu: "4"}}`),
			rules:  `  - {name: r, labels: {new: "1"}, extendedResources: {gpus: "2"}}` + "\n",
			reason: "replacing " + fl + "gpus in status.allocatable",
		},
		{
			name:   "unprefixed-resource-that-is-not-a-quantity-under-DisableAutoPrefix",
			opts:   func(o *Options) { o.AutoPrefix = false },
			node:   kubeNode("a", `labels: {team: x}`, "", `{capacity: {cpu: "4"}, allocatable: {cpu: "4"}}`),
			rules:  `  - {name: r, labels: {example.com/new: "1"}, extendedResources: {widgets: abc}}` + "\n",
			reason: `widgets: "abc" is not a quantity`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			if tt.opts != nil {
				tt.opts(&opts)
			}
			before := readSet(t, tt.node).Nodes[0].Obj.State
			res := renderExisting(t, opts, tt.node, tt.rules)
			if !reflect.DeepEqual(res.State, cloneState(&before)) {
				t.Errorf("state = %+v, want the node as it was: %+v", res.State, before)
			}
			if got := lines(res.Problems); len(got) != 1 || !strings.Contains(got[0], "node-update-failed") || !strings.Contains(got[0], tt.reason) {
				t.Errorf("problems = %q, want one node-update-failed naming %q", got, tt.reason)
			}
		})
	}
}

// TestDropsNoSettingAllowsAreErrorsLabelPolicyIsCertainOnlyWhenGiven
// covers point 9 with issue 27's rule (severity is the certainty of the
// defect): an annotation, extended resource or taint in a kubernetes.io
// namespace, or an unprefixed taint key, is dropped whatever nfd-master's
// settings, so it is an error; a label in a denied namespace could be
// allowed by extraLabelNs, so it is a warning, and an error once the
// settings are given.
func TestDropsNoSettingAllowsAreErrorsLabelPolicyIsCertainOnlyWhenGiven(t *testing.T) {
	rules := `  - name: r
    labels: {kubernetes.io/role: gpu}
    annotations: {kubernetes.io/owner: me, nfd.node.kubernetes.io/x: "y"}
    extendedResources: {kubernetes.io/gpus: "1"}
    taints: [{key: dedicated, effect: NoSchedule}, {key: node.kubernetes.io/x, effect: NoSchedule}, {key: example.com/bad, effect: Sometimes}]
`
	for _, given := range []bool{false, true} {
		opts := DefaultOptions()
		opts.EnableTaints, opts.Given = true, given
		res := renderExisting(t, opts, kubeNode("a", "", "", ""), rules)
		sev := map[string]diag.Severity{}
		for _, d := range res.Problems {
			sev[d.Field] = d.Severity
		}
		label := diag.Warning
		if given {
			label = diag.Error
		}
		want := map[string]diag.Severity{
			`spec.rules[0].labels["kubernetes.io/role"]`:            label,
			`spec.rules[0].annotations["kubernetes.io/owner"]`:      diag.Error,
			`spec.rules[0].annotations["nfd.node.kubernetes.io/x"]`: diag.Error,
			`spec.rules[0].extendedResources["kubernetes.io/gpus"]`: diag.Error,
			`spec.rules[0].taints[0]`:                               diag.Error,
			`spec.rules[0].taints[1]`:                               diag.Error,
			`spec.rules[0].taints[2]`:                               diag.Error,
		}
		if !reflect.DeepEqual(sev, want) {
			t.Errorf("given=%v: severities by field = %v\nwant %v", given, sev, want)
		}
	}
}

// TestNamespaceSelectorPicksTheNodeFeaturesNfdMasterReads covers point 10.
func TestNamespaceSelectorPicksTheNodeFeaturesNfdMasterReads(t *testing.T) {
	vendor := func(ns string) string {
		return nodeFeature(ns, "extra-"+ns, "a", "{features: {}, labels: {from-"+ns+": \"true\"}}")
	}
	namespace := "apiVersion: v1\nkind: Namespace\nmetadata: {name: trusted, labels: {nfd: allowed}}\n"
	tests := []struct {
		name     string
		selector string
		want     []string
	}{
		{"no-selector-reads-every-namespace", "", []string{"from-other", "from-trusted"}},
		{"labels-of-namespace-objects", "nfd=allowed", []string{"from-trusted"}},
		{"namespace-without-object-has-only-its-name-label", "kubernetes.io/metadata.name in (other)", []string{"from-other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			if tt.selector != "" {
				sel, err := labels.Parse(tt.selector)
				if err != nil {
					t.Fatal(err)
				}
				opts.NamespaceSelector = sel
			}
			f := renderSet(readSet(t, vendor("trusted"), vendor("other"), namespace), opts)
			got := []string{}
			for k := range nodeResult(t, f, "a").State.Labels {
				got = append(got, strings.TrimPrefix(k, fl))
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("labels = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestValidateNodesPredictsTheAPIServersRefusal covers point 12: with
// ValidateNodes, what nfd-master sends and the API server refuses fails
// the update at that patch; the patches before it stay applied.
func TestValidateNodesPredictsTheAPIServersRefusal(t *testing.T) {
	node := kubeNode("a", `labels: {team: x}`, "", `{capacity: {cpu: "4"}, allocatable: {cpu: "4"}}`)
	tests := []struct {
		name      string
		noPrefix  bool
		rules     string
		field     string
		resources bool // the extended resources were updated
		labels    bool // the labels were updated
	}{
		{"fractional-extended-resource-fails-the-status-patch",
			false, `  - {name: r, labels: {l: "1"}, extendedResources: {gpus: "1.5"}}` + "\n", "status.capacity", false, false},
		{"negative-extended-resource-fails-the-status-patch",
			false, `  - {name: r, labels: {l: "1"}, extendedResources: {gpus: "-1"}}` + "\n", "status.capacity", false, false},
		{"milli-extended-resource-fails-the-status-patch",
			false, `  - {name: r, labels: {l: "1"}, extendedResources: {gpus: 500m}}` + "\n", "status.capacity", false, false},
		{"unprefixed-label-value-with-spaces-fails-the-metadata-patch",
			true, `  - {name: r, labels: {plain: "has space"}, extendedResources: {example.com/gpus: "2"}}` + "\n", "metadata", true, false},
		{"taint-value-that-is-not-a-label-value-fails-the-taints-patch",
			false, `  - {name: r, labels: {l: "1"}, taints: [{key: example.com/t, value: "a b", effect: NoSchedule}]}` + "\n", "spec.taints", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.ValidateNodes, opts.EnableTaints, opts.AutoPrefix = true, true, !tt.noPrefix
			res := renderExisting(t, opts, node, tt.rules)
			got := lines(res.Problems)
			if len(got) != 1 || !strings.Contains(got[0], "node-update-failed") || !strings.Contains(got[0], " "+tt.field+": ") {
				t.Fatalf("problems = %q, want one node-update-failed at %s", got, tt.field)
			}
			if has := len(res.State.Capacity) > 1; has != tt.resources {
				t.Errorf("capacity = %v; extended resources updated = %v, want %v", res.State.Capacity, has, tt.resources)
			}
			if has := len(res.State.Labels) > 1; has != tt.labels {
				t.Errorf("labels = %v; updated = %v, want %v", res.State.Labels, has, tt.labels)
			}
			if len(res.State.Taints) != 0 || res.State.Annotations[an+"taints"] != "" {
				t.Errorf("taints = %v, annotation %q: want none", res.State.Taints, res.State.Annotations[an+"taints"])
			}
		})
	}
	t.Run("off-by-default-the-node-is-updated", func(t *testing.T) {
		res := renderExisting(t, DefaultOptions(), node, `  - {name: r, labels: {l: "1"}, extendedResources: {gpus: "1.5"}}`+"\n")
		if len(res.Problems) != 0 || res.State.Capacity[fl+"gpus"] != "1.5" {
			t.Errorf("problems %q, capacity %v", lines(res.Problems), res.State.Capacity)
		}
	})
}
