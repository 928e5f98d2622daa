package master

import (
	"reflect"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

const (
	fl = "feature.node.kubernetes.io/"
	an = "nfd.node.kubernetes.io/"
)

// renderExisting renders node a, which has a NodeFeature, the given Node
// object and the rules (block-style list for spec.rules).
func renderExisting(t *testing.T, opts Options, node, rules string) *NodeResult {
	t.Helper()
	f := renderSet(readSet(t, workerFeature("a", hostFeatures("a")), node, ruleObject("r", rules)), opts)
	return nodeResult(t, f, "a")
}

func TestPatchLabelsAndAnnotationsAsNFDMasterDoes(t *testing.T) {
	node := kubeNode("a", `labels: {team: x, `+fl+`old: "1", `+fl+`keep: "1", `+fl+`manual: "1", example.com/owned: "1"}, `+
		`annotations: {`+an+`feature-labels: "old,keep,example.com/owned", owner: me, `+an+`master.version: v0.10}`, "", "")
	rules := `  - {name: r, labels: {keep: "2", new: "3", manual: "2"}}` + "\n"
	tests := []struct {
		name        string
		opts        func(*Options)
		labels      map[string]string
		annotations map[string]string
	}{
		{
			name: "stale-owned-labels-removed-user-labels-kept-owned-overwritten",
			opts: func(*Options) {},
			labels: map[string]string{"team": "x", fl + "keep": "2", fl + "new": "3",
				// not owned (not in the annotation): nfd-master replaces it all the same
				fl + "manual": "2"},
			annotations: map[string]string{"owner": "me", an + "feature-labels": "keep,manual,new"},
		},
		{
			name: "allow-overwrite-false-keeps-owned-values-only",
			opts: func(o *Options) { o.AllowOverwrite = false },
			labels: map[string]string{"team": "x", fl + "keep": "1", fl + "new": "3",
				fl + "manual": "2"},
			// The annotation is owned too: it keeps its old value.
			annotations: map[string]string{"owner": "me", an + "feature-labels": "old,keep,example.com/owned"},
		},
		{
			name:        "instance-prefixes-the-tracking-annotations",
			opts:        func(o *Options) { o.Instance = "blue" },
			labels:      map[string]string{"team": "x", fl + "old": "1", fl + "keep": "2", fl + "new": "3", fl + "manual": "2", "example.com/owned": "1"},
			annotations: map[string]string{"owner": "me", an + "feature-labels": "old,keep,example.com/owned", an + "master.version": "v0.10", "blue." + an + "feature-labels": "keep,manual,new"},
		},
		{
			name:        "disable-labels-removes-every-owned-label",
			opts:        func(o *Options) { o.DisableLabels = true },
			labels:      map[string]string{"team": "x", fl + "manual": "1"},
			annotations: map[string]string{"owner": "me"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			tc.opts(&opts)
			a := renderExisting(t, opts, node, rules)
			if !reflect.DeepEqual(a.State.Labels, tc.labels) {
				t.Errorf("labels =\n%v\nwant\n%v", a.State.Labels, tc.labels)
			}
			if !reflect.DeepEqual(a.State.Annotations, tc.annotations) {
				t.Errorf("annotations =\n%v\nwant\n%v", a.State.Annotations, tc.annotations)
			}
		})
	}
}

func TestPatchFeatureAnnotations(t *testing.T) {
	node := kubeNode("a", `annotations: {`+an+`feature-annotations: "stale,example.com/gone", `+fl+`stale: s, example.com/gone: g, example.com/user: u}`, "", "")
	a := renderExisting(t, DefaultOptions(), node, `  - {name: r, annotations: {note: "n", example.com/x: "1"}}`+"\n")
	want := map[string]string{
		"example.com/user":         "u",
		fl + "note":                "n",
		"example.com/x":            "1",
		an + "feature-annotations": "example.com/x,note",
	}
	if !reflect.DeepEqual(a.State.Annotations, want) {
		t.Errorf("annotations =\n%v\nwant\n%v", a.State.Annotations, want)
	}
}

func TestPatchExtendedResources(t *testing.T) {
	node := kubeNode("a", `annotations: {`+an+`extended-resources: "old,same,changed,missing"}`, "",
		`{capacity: {cpu: "4", `+fl+`old: "1", `+fl+`same: "2", `+fl+`changed: "1", example.com/user: "7"}, `+
			`allocatable: {cpu: "4", `+fl+`old: "1", `+fl+`same: "1", `+fl+`changed: "1", example.com/user: "7"}}`)
	a := renderExisting(t, DefaultOptions(), node, `  - {name: r, extendedResources: {same: "2", changed: "5", gpus: "3"}}`+"\n")
	wantCapacity := map[string]string{"cpu": "4", fl + "same": "2", fl + "changed": "5", fl + "gpus": "3", "example.com/user": "7"}
	// same: capacity already 2, so nfd-master sends no patch and allocatable keeps 1.
	wantAllocatable := map[string]string{"cpu": "4", fl + "same": "1", fl + "changed": "5", fl + "gpus": "3", "example.com/user": "7"}
	if !reflect.DeepEqual(a.State.Capacity, wantCapacity) {
		t.Errorf("capacity =\n%v\nwant\n%v", a.State.Capacity, wantCapacity)
	}
	if !reflect.DeepEqual(a.State.Allocatable, wantAllocatable) {
		t.Errorf("allocatable =\n%v\nwant\n%v", a.State.Allocatable, wantAllocatable)
	}
	if got, want := a.State.Annotations[an+"extended-resources"], "changed,gpus,same"; got != want {
		t.Errorf("extended-resources annotation = %q, want %q", got, want)
	}
}

func TestPatchExtendedResourcesDisabledRemovesOwnedOnes(t *testing.T) {
	node := kubeNode("a", `annotations: {`+an+`extended-resources: "old"}`, "",
		`{capacity: {cpu: "4", `+fl+`old: "1"}, allocatable: {cpu: "4", `+fl+`old: "1"}}`)
	opts := DefaultOptions()
	opts.DisableExtendedResources = true
	a := renderExisting(t, opts, node, `  - {name: r, extendedResources: {gpus: "3"}}`+"\n")
	want := map[string]string{"cpu": "4"}
	if !reflect.DeepEqual(a.State.Capacity, want) || !reflect.DeepEqual(a.State.Allocatable, want) {
		t.Errorf("capacity %v allocatable %v, want %v", a.State.Capacity, a.State.Allocatable, want)
	}
	if _, ok := a.State.Annotations[an+"extended-resources"]; ok {
		t.Errorf("extended-resources annotation kept: %v", a.State.Annotations)
	}
}

func TestPatchTaints(t *testing.T) {
	node := kubeNode("a", `annotations: {`+an+`taints: "example.com/stale:NoExecute,example.com/gpu=old:NoSchedule"}`,
		`{taints: [{key: user.example.com/x, effect: NoSchedule}, {key: example.com/stale, effect: NoExecute}, `+
			`{key: example.com/gpu, value: old, effect: NoSchedule}]}`, "")
	rules := `  - {name: r, taints: [{key: example.com/gpu, value: "yes", effect: NoSchedule}, {key: example.com/new, effect: PreferNoSchedule}]}` + "\n"
	tests := []struct {
		name       string
		opts       func(*Options)
		taints     []api.Taint
		annotation string
		problems   []string
	}{
		{
			name: "owned-stale-removed-owned-updated-new-added-user-kept",
			opts: func(o *Options) { o.EnableTaints = true },
			taints: []api.Taint{
				{Key: "user.example.com/x", Effect: "NoSchedule"},
				{Key: "example.com/gpu", Value: "yes", Effect: "NoSchedule"},
				{Key: "example.com/new", Effect: "PreferNoSchedule"},
			},
			annotation: "example.com/gpu=yes:NoSchedule,example.com/new:PreferNoSchedule",
			problems:   []string{},
		},
		{
			name: "taints-disabled-removes-owned-taints-and-the-annotation",
			opts: func(*Options) {},
			taints: []api.Taint{
				{Key: "user.example.com/x", Effect: "NoSchedule"},
			},
			annotation: "",
			problems: []string{
				"warning taint-disabled NodeFeatureRule r spec.rules[0].taints[0]: taint example.com/gpu=yes:NoSchedule ignored: enableTaints is false",
				"warning taint-disabled NodeFeatureRule r spec.rules[0].taints[1]: taint example.com/new:PreferNoSchedule ignored: enableTaints is false",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			tc.opts(&opts)
			a := renderExisting(t, opts, node, rules)
			if !reflect.DeepEqual(a.State.Taints, tc.taints) {
				t.Errorf("taints =\n%+v\nwant\n%+v", a.State.Taints, tc.taints)
			}
			if got := a.State.Annotations[an+"taints"]; got != tc.annotation {
				t.Errorf("taints annotation = %q, want %q", got, tc.annotation)
			}
			if got := lines(a.Problems); !reflect.DeepEqual(got, tc.problems) {
				t.Errorf("problems =\n%q\nwant\n%q", got, tc.problems)
			}
		})
	}
}

// nfd-master's setTaints fails on a taints annotation it cannot parse
// and leaves taints and the annotation untouched; labels are still patched.
func TestPatchTaintsLeavesTaintsAloneWhenTheAnnotationDoesNotParse(t *testing.T) {
	for _, ann := range []string{`"example.com/stale"`, `""`, `"example.com/stale:NoExecute,example.com/stale=x:NoExecute"`, `"example.com/stale:Sometimes"`} {
		t.Run(ann, func(t *testing.T) {
			node := kubeNode("a", `labels: {`+fl+`old: "1"}, annotations: {`+an+`feature-labels: old, `+an+`taints: `+ann+`}`,
				`{taints: [{key: example.com/stale, effect: NoExecute}]}`, "")
			opts := DefaultOptions()
			opts.EnableTaints = true
			a := renderExisting(t, opts, node, `  - {name: r, labels: {new: "1"}, taints: [{key: example.com/gpu, effect: NoSchedule}]}`+"\n")
			if want := []api.Taint{{Key: "example.com/stale", Effect: "NoExecute"}}; !reflect.DeepEqual(a.State.Taints, want) {
				t.Errorf("taints = %+v, want %+v", a.State.Taints, want)
			}
			if got, ok := a.State.Annotations[an+"taints"]; !ok || "\""+got+"\"" != ann {
				t.Errorf("taints annotation = %q (present %v), want it untouched", got, ok)
			}
			if want := map[string]string{fl + "new": "1"}; !reflect.DeepEqual(a.State.Labels, want) {
				t.Errorf("labels = %v, want %v", a.State.Labels, want)
			}
			if len(a.Problems) != 1 {
				t.Fatalf("problems = %q, want one", lines(a.Problems))
			}
			p := a.Problems[0]
			const prefix = "cannot parse the taints annotation, so nfd-master would leave taints untouched: "
			if p.Severity != "error" || p.Object.String() != "Node a" || p.Field != `metadata.annotations["nfd.node.kubernetes.io/taints"]` ||
				len(p.Message) <= len(prefix) || p.Message[:len(prefix)] != prefix {
				t.Errorf("problem = %q", lines(a.Problems))
			}
		})
	}
}

func TestNewNodeGetsLabelsAndTrackingAnnotations(t *testing.T) {
	f := renderSet(readSet(t, workerFeature("a", hostFeatures("a")),
		ruleObject("r", `  - {name: r, labels: {x: "1", example.com/y: "2"}, extendedResources: {gpus: "1"}}`+"\n")), DefaultOptions())
	a := nodeResult(t, f, "a")
	want := NodeState{
		Labels:      map[string]string{fl + "x": "1", "example.com/y": "2"},
		Annotations: map[string]string{an + "feature-labels": "example.com/y,x", an + "extended-resources": "gpus"},
		Capacity:    map[string]string{fl + "gpus": "1"},
		Allocatable: map[string]string{fl + "gpus": "1"},
	}
	if !reflect.DeepEqual(a.State, want) {
		t.Errorf("state =\n%+v\nwant\n%+v", a.State, want)
	}
}

func TestApplyPatchMirrorsCreatePatches(t *testing.T) {
	old := map[string]string{"owned-stale": "1", "owned-same": "1", "owned-changed": "1", "user": "1", "user-changed": "1"}
	want := map[string]string{"owned-same": "1", "owned-changed": "2", "user-changed": "2", "added": "1"}
	owned := []string{"owned-stale", "owned-same", "owned-changed", "owned-absent"}
	tests := []struct {
		overwrite bool
		want      map[string]string
	}{
		{true, map[string]string{"owned-same": "1", "owned-changed": "2", "user": "1", "user-changed": "2", "added": "1"}},
		{false, map[string]string{"owned-same": "1", "owned-changed": "1", "user": "1", "user-changed": "2", "added": "1"}},
	}
	for _, tc := range tests {
		got := applyPatch(old, want, owned, tc.overwrite)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("overwrite=%v: %v, want %v", tc.overwrite, got, tc.want)
		}
	}
	if len(old) != 5 || old["owned-stale"] != "1" {
		t.Errorf("applyPatch changed its input: %v", old)
	}
	if got := applyPatch(nil, nil, nil, true); got == nil || len(got) != 0 {
		t.Errorf("applyPatch(nil...) = %#v, want an empty map", got)
	}
}

func TestParseTaints(t *testing.T) {
	tests := []struct {
		in   string
		want []api.Taint
	}{
		{"a/b:NoSchedule", []api.Taint{{Key: "a/b", Effect: "NoSchedule"}}},
		{"a/b=v:NoExecute,c/d:PreferNoSchedule", []api.Taint{{Key: "a/b", Value: "v", Effect: "NoExecute"}, {Key: "c/d", Effect: "PreferNoSchedule"}}},
		{"a/b:NoSchedule,a/b:NoExecute", []api.Taint{{Key: "a/b", Effect: "NoSchedule"}, {Key: "a/b", Effect: "NoExecute"}}},
	}
	for _, tc := range tests {
		got, err := parseTaints(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseTaints(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "a/b", "a/b:Sometimes", "a/b:NoSchedule,a/b=x:NoSchedule", "a/b:NoSchedule,"} {
		if got, err := parseTaints(bad); err == nil {
			t.Errorf("parseTaints(%q) = %+v, want an error as NFD's ParseTaints gives", bad, got)
		}
	}
}
