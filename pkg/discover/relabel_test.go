package discover

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// TestRecomputedLabelsEqualTheReferences recomputes, from the features of
// every NodeFeature nfd-worker itself published for the reference trees
// (v0.17, v0.18 and v0.19, with and without a worker configuration), the
// labels with the configuration the reference was made with: they must
// be the labels nfd-worker published. Only the labels of custom.d files
// and features.d hooks (on the host, not in the features) may come from
// the published ones, with a note; every built-in label is recomputed.
func TestRecomputedLabelsEqualTheReferences(t *testing.T) {
	for name, rc := range referenceCases() {
		t.Run(name, func(t *testing.T) {
			want := readReference(t, filepath.Join(fixtureDir, rc.reference))
			var config []byte
			if rc.config != "" {
				config = readFile(t, filepath.Join(fixtureDir, rc.config))
			}
			l, _, err := NewLabeler(config, rc.version)
			if err != nil {
				t.Fatal(err)
			}
			got, notes := l.Labels(&want.Spec.Features, want.Spec.Labels)
			if diff := cmp.Diff(want.Spec.Labels, got); diff != "" {
				t.Errorf("recomputed labels differ from nfd-worker's (-published +recomputed):\n%s", diff)
			}
			alone, _ := l.Labels(&want.Spec.Features, nil)
			for k, v := range want.Spec.Labels {
				if sourceOfLabel(k) != "" && !hybridCPULabel(k) && alone[k] != v {
					t.Errorf("built-in label %s=%s is not recomputed from the features alone (got %q)", k, v, alone[k])
				}
			}
			checkNotesOnlyKeep(t, notes, "custom")
		})
	}
}

// TestRecomputedLabelsEqualEveryTestdataNodeFeature recomputes with
// nfd-worker's defaults, for every release, the labels of every
// NodeFeature in testdata (the fleets of the oracle cases, the exports,
// the plan and validate fixtures): every label a NodeFeature publishes
// must come back with its value. The fixtures were trimmed by hand (an
// export keeps a few of the worker's labels, an oracle fleet none), so
// the recompute may add labels their features imply; the exact equality
// is TestRecomputedLabelsEqualTheReferences', on what nfd-worker itself
// published.
func TestRecomputedLabelsEqualEveryTestdataNodeFeature(t *testing.T) {
	nfs := testdataNodeFeatures(t, "../../testdata")
	if len(nfs) < 40 {
		t.Fatalf("found %d NodeFeatures in testdata, want the oracle fleets' too", len(nfs))
	}
	for _, v := range SupportedNFDVersions() {
		l, _, err := NewLabeler(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		for where, nf := range nfs {
			got, _ := l.Labels(&nf.Spec.Features, nf.Spec.Labels)
			for k, want := range nf.Spec.Labels {
				if g, ok := got[k]; !ok || g != want {
					t.Errorf("%s %s: published label %s=%s recomputed as %q (present: %v)", v, where, k, want, g, ok)
				}
			}
		}
	}
}

// TestWorkerConfigChangeRenamesDeviceLabels is NVIDIA/gpu-operator#1469:
// adding device to sources.pci.deviceLabelFields renames
// pci-10de.present to pci-10de_<device>.present.
func TestWorkerConfigChangeRenamesDeviceLabels(t *testing.T) {
	f := v1alpha1.Features{Instances: map[string]v1alpha1.InstanceFeatureSet{"pci.device": {Elements: []v1alpha1.InstanceFeature{
		{Attributes: map[string]string{"class": "0302", "vendor": "10de", "device": "20b5"}},
	}}}}
	published := map[string]string{"feature.node.kubernetes.io/pci-10de.present": "true"}
	tests := []struct {
		name, config string
		want         map[string]string
	}{
		{"vendor", "sources: {pci: {deviceLabelFields: [vendor]}}", published},
		{"vendor-device", "sources: {pci: {deviceLabelFields: [vendor, device]}}", map[string]string{"feature.node.kubernetes.io/pci-10de_20b5.present": "true"}},
		{"class-whitelist-without-gpus", "sources: {pci: {deviceClassWhitelist: [\"02\"], deviceLabelFields: [vendor]}}", map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, _, err := NewLabeler([]byte(tc.config), "")
			if err != nil {
				t.Fatal(err)
			}
			got, notes := l.Labels(&f, published)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(notes) != 0 {
				t.Errorf("notes: %v", notes)
			}
		})
	}
}

// TestLabelsOfAWithheldFeatureAreKeptWithANote: a snapshot taken with
// core.noPublishFeatures lacks the feature a source reads; its published
// labels stay, and a note says why.
func TestLabelsOfAWithheldFeatureAreKeptWithANote(t *testing.T) {
	l, _, err := NewLabeler([]byte("sources: {pci: {deviceLabelFields: [vendor, device]}}"), "")
	if err != nil {
		t.Fatal(err)
	}
	published := map[string]string{"feature.node.kubernetes.io/pci-10de.present": "true", "my-hook": "on"}
	got, notes := l.Labels(&v1alpha1.Features{}, published)
	if diff := cmp.Diff(published, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(notes) != 2 || !strings.Contains(notes[0].Message, "no pci.device feature") || !strings.Contains(notes[1].Message, "my-hook") {
		t.Errorf("notes: %v", notes)
	}
}

// checkNotesOnlyKeep fails on a note of the recompute about another
// source than want (a gap in the reference's features).
func checkNotesOnlyKeep(t *testing.T, notes diag.List, want string) {
	t.Helper()
	for _, n := range notes {
		if n.Field != want {
			t.Errorf("unexpected note: %s", n.Describe())
		}
	}
}

// testdataNodeFeatures reads every NodeFeature in the YAML files under
// root, items of ResourceLists and Lists included, by file and name.
func testdataNodeFeatures(t *testing.T, root string) map[string]*v1alpha1.NodeFeature {
	t.Helper()
	out := map[string]*v1alpha1.NodeFeature{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") || strings.Contains(p, "hostile") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil // a fixture's dangling symlink
		}
		dec := yaml.NewDecoder(strings.NewReader(string(raw)))
		for {
			var doc any
			if dec.Decode(&doc) != nil {
				break
			}
			collectNodeFeatures(t, p, doc, out)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// collectNodeFeatures adds the NodeFeatures in doc (itself or its items).
func collectNodeFeatures(t *testing.T, file string, doc any, out map[string]*v1alpha1.NodeFeature) {
	m, ok := doc.(map[string]any)
	if !ok {
		return
	}
	if items, ok := m["items"].([]any); ok {
		for _, it := range items {
			collectNodeFeatures(t, file, it, out)
		}
	}
	if m["kind"] != "NodeFeature" {
		return
	}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var nf v1alpha1.NodeFeature
	if err := json.Unmarshal(raw, &nf); err != nil {
		return // a fixture of a broken NodeFeature
	}
	out[file+" "+nf.Metadata.Namespace+"/"+nf.Metadata.Name] = &nf
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
