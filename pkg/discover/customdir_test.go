package discover

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

func TestReadCustomDirWalksLikeNfdWorker(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, customDirRel)
	rule := func(name string) string { return "- name: " + name + "\n  labels: {" + name + ": \"true\"}\n" }
	mustWrite(t, filepath.Join(dir, "a.yaml"), rule("top"))
	mustWrite(t, filepath.Join(dir, ".hidden.yaml"), rule("dot-file"))
	mustWrite(t, filepath.Join(dir, ".dir/b.yaml"), rule("dot-dir"))
	mustWrite(t, filepath.Join(dir, "sub/c.yaml"), rule("first-level"))
	mustWrite(t, filepath.Join(dir, "sub/deeper/d.yaml"), rule("second-level"))
	mustWrite(t, filepath.Join(dir, "sub/.e.yaml"), rule("dot-file-in-sub"))
	mustWrite(t, filepath.Join(dir, "z-dup.yaml"), "- name: dup\n  name: again\n")
	mustWrite(t, filepath.Join(dir, "z-map.yaml"), "name: not-a-list\n")
	mustLink(t, "sub", filepath.Join(dir, "y-link"))
	c := newCollector("custom", false)
	var names []string
	for _, r := range readCustomDir(newHost(root), "nfd-worker v0.19", c) {
		names = append(names, r.Name)
	}
	if diff := cmp.Diff([]string{"dot-dir", "top", "first-level"}, names); diff != "" {
		t.Errorf("rules read (-want +got):\n%s", diff)
	}
	var got []string
	for _, w := range c.warnings {
		got = append(got, strings.ReplaceAll(w.Message, root, "<root>"))
	}
	want := []string{
		`could not read file etc/kubernetes/node-feature-discovery/custom.d/y-link: reading "<root>/etc/kubernetes/node-feature-discovery/custom.d/sub": not a regular file`,
		`could not parse file etc/kubernetes/node-feature-discovery/custom.d/z-dup.yaml, skipping it: error converting YAML to JSON: yaml: unmarshal errors: line 2: key "name" already set in map`,
		`could not parse file etc/kubernetes/node-feature-discovery/custom.d/z-map.yaml, skipping it: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal object into Go value of type []discover.ruleConfig`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestCustomDirFilesReadYAML11ScalarsAsNfdWorkerAndSayWhichValue(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, customDirRel, "rules.yaml"),
		"- name: r\n  labels: {on: yes}\n  matchFeatures:\n    - feature: pci.device\n      matchExpressions: {class: {op: In, value: 0300}}\n")
	for _, confine := range []bool{false, true} {
		c := newCollector("custom", confine)
		rules := readCustomDir(newHost(root), "nfd-worker v0.19", c)
		if len(rules) != 1 {
			t.Fatalf("%d rules, want 1", len(rules))
		}
		if diff := cmp.Diff(map[string]string{"true": "true"}, rules[0].Labels); diff != "" {
			t.Errorf("labels (-want +got):\n%s", diff)
		}
		if got := (*rules[0].MatchFeatures[0].MatchExpressions)["class"].Value; !cmp.Equal(got, v1alpha1.MatchValue{"192"}) {
			t.Errorf("class value %v, want [192]", got)
		}
		var got []string
		for _, w := range c.warnings {
			got = append(got, w.Message)
		}
		const f = "etc/kubernetes/node-feature-discovery/custom.d/rules.yaml: "
		want := []string{
			f + `line 2: [0].labels: nfd-worker reads the unquoted key on as "true" (YAML 1.1 takes it for a boolean); quote it to mean "on"`,
			f + `line 2: [0].labels.on: nfd-worker reads the unquoted value yes as "true" (YAML 1.1 takes it for a boolean); quote it to mean "yes"`,
			f + `line 5: [0].matchFeatures[0].matchExpressions.class.value: nfd-worker reads the unquoted value 0300 as "192" (YAML 1.1 takes it for a number); quote it to mean "0300"`,
		}
		if confine {
			brief := f + "line %d: an unquoted value nfd-worker v0.19 reads otherwise than written (YAML 1.1): quote it"
			want = []string{fmt.Sprintf(brief, 2), fmt.Sprintf(brief, 2), fmt.Sprintf(brief, 5)}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("confine %v: warnings (-want +got):\n%s", confine, diff)
		}
	}
}

// TestKubeletConfigMapMountsReadAsNfdWorkerReadsThem runs the configmap-host
// tree: the worker config, features.d and custom.d are kubelet ConfigMap
// mounts (a timestamped ..<date> directory, a ..data link to it, file links
// through ..data). nfd-worker follows the links, skips the hidden entries of
// features.d, and enters custom.d's timestamped directory as a first-level
// subdirectory, so a ConfigMap mounted at custom.d itself runs its rules
// twice (seen-twice matches only on the second pass).
func TestKubeletConfigMapMountsReadAsNfdWorkerReadsThem(t *testing.T) {
	root := filepath.Join(fixtureDir, "configmap-host")
	nf, _, err := Discover(context.Background(), Options{HostRoot: root, NodeName: "n", Arch: "amd64",
		WorkerConfigPath: filepath.Join(root, "etc/kubernetes/node-feature-discovery/nfd-worker.conf"),
		CPUID:            CPUIDFunc(func() CPUInfo { return CPUInfo{} })})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"vendor.example.com/accelerator": "present", "from-worker-config": "true",
		"first-pass": "true", "seen-twice": "true", "from-team": "true"}
	got := map[string]string{}
	for k := range want {
		if v, ok := nf.Spec.Labels[k]; ok {
			got[k] = v
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"vendor.example.com/accelerator": "present"}, nf.Spec.Features.Attributes["local.feature"].Elements); diff != "" {
		t.Errorf("local.feature (-want +got):\n%s", diff)
	}
}
