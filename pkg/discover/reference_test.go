package discover

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// referenceNode is the node name every reference was made with.
const referenceNode = "node-datacenter1-rack1-server1"

// referenceCase is one NodeFeature nfd-worker v0.19.0 published for a
// host-root tree of testdata/discover (see testdata/discover/README.md).
type referenceCase struct {
	// tree is the host root below testdata/discover.
	tree string
	// config is the worker configuration, relative to testdata/discover.
	config string
	// reference is the JSON nfd-worker published, in testdata/discover.
	reference string
	// version is the nfd-worker release (Options.NFDVersion); "" is v0.19.0.
	version string
}

// defaultsConfig names nfd-worker's defaults, for the references made
// without a configuration file on a tree that holds one at nfd-worker's
// default location (odd-devices), which discover reads when none is named.
const defaultsConfig = "defaults.worker-config.yaml"

// referenceCases lists every reference output.
func referenceCases() map[string]referenceCase {
	return map[string]referenceCase{
		"odd-cpu":                 {tree: "odd-cpu", reference: "odd-cpu.nfd-worker.json"},
		"odd-devices":             {tree: "odd-devices", config: defaultsConfig, reference: "odd-devices.nfd-worker.json"},
		"odd-devices-with-config": {tree: "odd-devices", config: "odd-devices/etc/kubernetes/node-feature-discovery/nfd-worker.conf", reference: "odd-devices.nfd-worker.with-config.json"},
		"odd-system":              {tree: "odd-system", reference: "odd-system.nfd-worker.json"},
		"sysfs-symlinks":          {tree: "sysfs-symlinks", reference: "sysfs-symlinks.nfd-worker.json"},
		"arm64-host":              {tree: "arm64-host", reference: "arm64-host.nfd-worker.json"},
		"bare-host":               {tree: "bare-host", reference: "bare-host.nfd-worker.json"},
		"full-host":               {tree: "full-host", reference: "full-host.nfd-worker.json"},
		"full-host-with-config":   {tree: "full-host", config: "full-host.worker-config.yaml", reference: "full-host.nfd-worker.with-config.json"},
		// Derived from NFD v0.19.0's code, not run (testdata/discover/README.md).
		"full-host-with-config-as-written": {tree: "full-host", config: "full-host.worker-config-as-written.yaml", reference: "full-host.nfd-worker.with-config-as-written.json"},
		"configmap-host-with-config":       {tree: "configmap-host", config: "configmap-host/etc/kubernetes/node-feature-discovery/nfd-worker.conf", reference: "configmap-host.nfd-worker.with-config.json"},
		"odd-devices-v0.17":                {tree: "odd-devices", config: defaultsConfig, reference: "odd-devices.nfd-worker.v0.17.json", version: "v0.17.1"},
		"odd-devices-v0.18":                {tree: "odd-devices", config: defaultsConfig, reference: "odd-devices.nfd-worker.v0.18.json", version: "v0.18.3"},
		"odd-system-v0.17":                 {tree: "odd-system", reference: "odd-system.nfd-worker.v0.17.json", version: "v0.17.1"},
		"odd-system-v0.18":                 {tree: "odd-system", reference: "odd-system.nfd-worker.v0.18.json", version: "v0.18.3"},
	}
}

// TestDiscoverEqualsNfdWorkerReferences is compare.py of the shared
// conformance data in Go: the NodeFeature of every reference tree must
// equal the one nfd-worker v0.19.0 published, feature by feature (instances
// in nfd-worker's order) and label by label, leaving out the cpu.*
// features and cpu-* labels, which depend on the CPU of the machine that
// made the reference. The CPUID answers are the reference machine's, so
// custom rules on cpu.cpuid are compared too.
func TestDiscoverEqualsNfdWorkerReferences(t *testing.T) {
	for name, rc := range referenceCases() {
		t.Run(name, func(t *testing.T) {
			want := readReference(t, filepath.Join(fixtureDir, rc.reference))
			o := Options{
				HostRoot:   filepath.Join(fixtureDir, rc.tree),
				NodeName:   referenceNode,
				Arch:       "amd64",
				Now:        func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) },
				CPUID:      referenceCPUID(want),
				NFDVersion: rc.version,
			}
			if rc.config != "" {
				o.WorkerConfigPath = filepath.Join(fixtureDir, rc.config)
			}
			got, _, err := Discover(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(comparable(want), comparable(got)); diff != "" {
				t.Errorf("nfd-fn differs from the nfd-worker reference %s (-nfd-worker +nfd-fn):\n%s", rc.reference, diff)
			}
		})
	}
}

// readReference decodes a reference NodeFeature.
func readReference(t *testing.T, p string) *v1alpha1.NodeFeature {
	t.Helper()
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var nf v1alpha1.NodeFeature
	if err := json.Unmarshal(raw, &nf); err != nil {
		t.Fatalf("decoding %s: %v", p, err)
	}
	return &nf
}

// referenceCPUID answers CPUID as the machine that made the reference did.
func referenceCPUID(nf *v1alpha1.NodeFeature) CPUIDProvider {
	f := nf.Spec.Features
	return CPUIDFunc(func() CPUInfo {
		info := CPUInfo{Flags: sortedKeys(f.Flags["cpu.cpuid"].Elements), Attributes: f.Attributes["cpu.cpuid"].Elements}
		info.VendorID = f.Attributes["cpu.model"].Elements["vendor_id"]
		return info
	})
}

// comparable flattens a NodeFeature the way compare.py does: one entry
// per feature ("flags/<name>", "attributes/<name>", "instances/<name>")
// and per label ("label/<key>"), without cpu.* features and cpu-* labels,
// plus the object's name, namespace and labels.
func comparable(nf *v1alpha1.NodeFeature) map[string]any {
	out := map[string]any{
		"metadata/name": nf.Metadata.Name, "metadata/namespace": nf.Metadata.Namespace,
		"metadata/labels": nf.Metadata.Labels,
	}
	f := nf.Spec.Features
	for k, v := range f.Flags {
		if !strings.HasPrefix(k, "cpu.") {
			out["flags/"+k] = sortedKeys(v.Elements)
		}
	}
	for k, v := range f.Attributes {
		if !strings.HasPrefix(k, "cpu.") {
			out["attributes/"+k] = nonNil(v.Elements)
		}
	}
	for k, v := range f.Instances {
		if !strings.HasPrefix(k, "cpu.") {
			list := []map[string]string{}
			for _, i := range v.Elements {
				list = append(list, nonNil(i.Attributes))
			}
			out["instances/"+k] = list
		}
	}
	for k, v := range nf.Spec.Labels {
		if !strings.Contains(k, "cpu-") {
			out["label/"+k] = v
		}
	}
	return out
}

// nonNil returns m, or an empty map for nil: JSON and Go disagree on
// whether an empty element set is there.
func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// cpuLabelsOf returns the cpu-* labels of a NodeFeature that come from
// files of the tree rather than from the CPU.
func cpuLabelsOf(nf *v1alpha1.NodeFeature, keys ...string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		if v, ok := nf.Spec.Labels["feature.node.kubernetes.io/cpu-"+k]; ok {
			out[k] = v
		}
	}
	return out
}
