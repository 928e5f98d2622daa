package fastread

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// slowDecode is the general path decodeFast must agree with: yaml.v3 parses
// raw (a document, or a block sequence of one entry) and Decode reads the
// tree. ok is false when yaml.v3 does not read raw as one object.
func slowDecode(raw []byte) (*objects.Decoded, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Content) != 1 {
		return nil, false
	}
	n := doc.Content[0]
	if ys.CheckTree(n, ys.MaxDepth, ys.MaxAliasNodes) != nil {
		return nil, false // what the ResourceList reader refuses (a key given twice)
	}
	if first := bytes.TrimLeft(raw, " \n#"); bytes.HasPrefix(first, []byte("- ")) || n.Kind == yaml.SequenceNode {
		if n.Kind != yaml.SequenceNode || len(n.Content) != 1 {
			return nil, false
		}
		n = n.Content[0]
	}
	return objects.Decode(n), true
}

// checkAgrees fails when decodeFast reads raw and the general path does not
// read the same clean NodeFeature.
func checkAgrees(t *testing.T, raw []byte) bool {
	t.Helper()
	checkNodeAgrees(t, raw)
	checkOtherAgrees(t, raw)
	fast, ok := decodeFull(raw)
	checkLeanAgrees(t, raw, fast, ok)
	if !ok {
		return false
	}
	slow, parsed := slowDecode(raw)
	switch {
	case !parsed:
		t.Fatalf("decodeFast read text yaml.v3 does not read as one object:\n%s", raw)
	case slow.Class != objects.NFD || len(slow.Errs) > 0:
		t.Fatalf("decodeFast read text the strict decoder refuses (class %v, errors %v):\n%s", slow.Class, slow.Errs, raw)
	case slow.Ref != fast.Ref:
		t.Fatalf("refs differ: fast %+v, slow %+v:\n%s", fast.Ref, slow.Ref, raw)
	case !reflect.DeepEqual(slow.Obj, fast.Obj):
		t.Fatalf("objects differ:\nfast %#v\nslow %#v\ninput:\n%s", fast.Obj, slow.Obj, raw)
	}
	return true
}

// checkNodeAgrees fails when DecodeNodeFast reads raw and the general
// path does not read the same clean Node.
func checkNodeAgrees(t *testing.T, raw []byte) {
	t.Helper()
	fast, ok := DecodeNodeFast(raw)
	if !ok {
		return
	}
	slow, parsed := slowDecode(raw)
	switch {
	case !parsed:
		t.Fatalf("DecodeNodeFast read text the general path refuses:\n%s", raw)
	case slow.Class != objects.KubeNode || len(slow.Errs) > 0:
		t.Fatalf("DecodeNodeFast read a Node the general path reports (class %v, errors %v):\n%s", slow.Class, slow.Errs, raw)
	case slow.Ref != fast.Ref:
		t.Fatalf("refs differ: fast %+v, slow %+v:\n%s", fast.Ref, slow.Ref, raw)
	case !reflect.DeepEqual(slow.Obj, fast.Obj):
		t.Fatalf("Nodes differ:\nfast %#v\nslow %#v\ninput:\n%s", fast.Obj, slow.Obj, raw)
	}
}

// checkOtherAgrees fails when DecodeOtherFast reads raw and the general
// path does not read the same object nfd-fn passes through, with the same
// annotations as an item's identity takes them (Scalar of each).
func checkOtherAgrees(t *testing.T, raw []byte) {
	t.Helper()
	fast, ann, ok := DecodeOtherFast(raw)
	if !ok {
		return
	}
	slow, parsed := slowDecode(raw)
	switch {
	case !parsed:
		t.Fatalf("DecodeOtherFast read text the general path refuses:\n%s", raw)
	case slow.Class != objects.Other || len(slow.Errs) > 0 || slow.Ref != fast.Ref:
		t.Fatalf("DecodeOtherFast read %+v, the general path %+v (class %v, errors %v):\n%s", fast.Ref, slow.Ref, slow.Class, slow.Errs, raw)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Content[0]
	if n.Kind == yaml.SequenceNode {
		n = n.Content[0]
	}
	annNode := ys.Mapping(ys.Mapping(n, "metadata"), "annotations")
	want := map[string]string{}
	if annNode != nil {
		for i := 0; i+1 < len(annNode.Content); i += 2 {
			want[annNode.Content[i].Value] = ys.Scalar(annNode, annNode.Content[i].Value)
		}
	}
	if len(want)+len(ann) > 0 && !reflect.DeepEqual(ann, want) {
		t.Fatalf("DecodeOtherFast's annotations %v, the tree's %v:\n%s", ann, want, raw)
	}
}

// checkLeanAgrees fails when DecodeLean does not accept exactly what
// decodeFast accepts (fast, ok), or reads other metadata, labels or
// feature names.
func checkLeanAgrees(t *testing.T, raw []byte, fast *objects.Decoded, ok bool) {
	t.Helper()
	lean, leanOK := DecodeLean(raw, nil, nil)
	if leanOK != ok {
		t.Fatalf("decodeFast ok=%v, DecodeLean ok=%v:\n%s", ok, leanOK, raw)
	}
	if !ok {
		return
	}
	want := *fast.Obj.(*api.NodeFeature)
	got := *lean.Obj.(*objects.LeanNodeFeature).Names
	if !reflect.DeepEqual(got.Metadata, want.Metadata) || !reflect.DeepEqual(got.Spec.Labels, want.Spec.Labels) ||
		!sameNames(got.Spec.Features.Flags, want.Spec.Features.Flags) ||
		!sameNames(got.Spec.Features.Attributes, want.Spec.Features.Attributes) ||
		!sameNames(got.Spec.Features.Instances, want.Spec.Features.Instances) {
		t.Fatalf("DecodeLean read\n%#v\nDecodeFast\n%#v\ninput:\n%s", got, want, raw)
	}
	if !reflect.DeepEqual(load(t, lean, nil), &want.Spec) {
		t.Fatalf("DecodeLean's LoadSpec differs from decodeFast:\n%s", raw)
	}
	// With a filter, the features it names (as written or lower-cased)
	// and no others.
	only := map[string]bool{"cpu.cpuid": true, "kernel.version": true}
	filtered := want.Spec
	filtered.Features = api.Features{Flags: keepOnly(want.Spec.Features.Flags, only),
		Attributes: keepOnly(want.Spec.Features.Attributes, only), Instances: keepOnly(want.Spec.Features.Instances, only)}
	if got := load(t, lean, only); !reflect.DeepEqual(got, &filtered) {
		t.Fatalf("DecodeLean's LoadSpec(%v) = %+v, want %+v:\n%s", only, got.Features, filtered.Features, raw)
	}
}

// load is Load of the lean NodeFeature d; it fails the test on an error.
func load(t *testing.T, d *objects.Decoded, only map[string]bool) *api.NodeFeatureSpec {
	t.Helper()
	spec, err := d.Obj.(*objects.LeanNodeFeature).Load(only)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return spec
}

// keepOnly is m without the keys only does not name (as written or
// lower-cased); nil stays nil.
func keepOnly[T any](m map[string]T, only map[string]bool) map[string]T {
	if m == nil {
		return nil
	}
	out := map[string]T{}
	for k, v := range m {
		if only[k] || only[strings.ToLower(k)] {
			out[k] = v
		}
	}
	return out
}

// sameNames reports whether a and b hold the same keys (and are both nil
// or both not).
func sameNames[T any](a, b map[string]T) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

const kubectlNodeFeature = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata:
  annotations:
    nfd.node.kubernetes.io/worker.version: v0.19.0
  creationTimestamp: "2025-01-10T09:00:00Z"
  generation: 3
  labels:
    nfd.node.kubernetes.io/node-name: worker-1
  name: worker-1
  namespace: node-feature-discovery
  ownerReferences:
  - apiVersion: v1
    blockOwnerDeletion: true
    controller: true
    kind: Pod
    name: nfd-worker-abcde
    uid: 0d4f9a54-4c1e-4b8e-9f0e-2f1b6c2c9a10
  resourceVersion: "123456"
  uid: 7d2b8f0e-1a2b-4c3d-8e9f-0a1b2c3d4e5f
spec:
  features:
    attributes:
      cpu.model:
        elements:
          family: "6"
          vendor_id: GenuineIntel
      kernel.version:
        elements:
          full: 6.8.0-45-generic
          major: "6"
    flags:
      cpu.cpuid:
        elements:
          ADX: {}
          AVX: {}
      kernel.loadedmodule:
        elements: {}
    instances:
      pci.device:
        elements:
        - attributes:
            class: "0200"
            vendor: "8086"
        - attributes:
            class: "0300"
            vendor: 10de
      memory.nv:
        elements: []
  labels: {}
`

// entry indents a document as a ResourceList item at column ind.
func entry(doc string, ind int) string {
	pad := strings.Repeat(" ", ind)
	var b strings.Builder
	for i, l := range strings.SplitAfter(doc, "\n") {
		if l == "" {
			continue
		}
		if i == 0 {
			b.WriteString(pad + "- " + l)
		} else {
			b.WriteString(pad + "  " + l)
		}
	}
	return b.String()
}

// workerNode is one item of the 1,000-node fleet (fleetgen -seed 1): the
// layout and size (180 KB, 6,000 elements) nfd-worker writes.
func workerNode(tb testing.TB) []byte {
	tb.Helper()
	data, err := os.ReadFile("testdata/fast/worker-node.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestDecodeFastReadsKubectlAndWorkerLayouts(t *testing.T) {
	for _, raw := range []string{kubectlNodeFeature, entry(kubectlNodeFeature, 0), entry(kubectlNodeFeature, 2), string(workerNode(t))} {
		if !checkAgrees(t, []byte(raw)) {
			t.Fatalf("decodeFast fell back on:\n%s", raw)
		}
	}
}

func TestDecodeFastFallsBack(t *testing.T) {
	base := entry(kubectlNodeFeature, 0)
	tests := []struct{ name, from, to string }{
		{"flow-mapping", "ADX: {}", "ADX: {a: b}"},
		{"anchor", "vendor_id: GenuineIntel", "vendor_id: &v GenuineIntel"},
		{"tag", `family: "6"`, `family: !!str 6`},
		{"escape", `family: "6"`, `family: "\x36"`},
		{"trailing-comment", `family: "6"`, `family: "6" # six`},
		{"int-where-string", `family: "6"`, `family: 6`},
		{"bool-where-string", `family: "6"`, `family: true`},
		{"timestamp-where-string", `family: "6"`, `family: 2024-01-02`},
		{"unknown-field", "  labels: {}\n", "  labelz: {}\n"},
		{"duplicate-key", "AVX: {}", "AVX: {}\n            AVX: {}"},
		{"duplicate-ignored-field", "  generation: 3\n", "  generation: 3\n    generation: 4\n"},
		{"continuation", "vendor_id: GenuineIntel", "vendor_id: Genuine\n              Intel"},
		{"block-scalar", `family: "6"`, "family: |\n              6"},
		{"tab", `family: "6"`, "family:\t\"6\""},
		{"cr", `family: "6"`, "family: \"6\"\r"},
		{"non-ascii", `family: "6"`, `family: "é"`},
		{"flag-with-value", "ADX: {}", "ADX: yes"},
		{"yaml11-boolean-key", "ADX: {}", "on: {}"},
		{"other-kind", "kind: NodeFeature", "kind: NodeFeatureRule"},
		{"uneven-indentation", "          family: \"6\"\n", "          family: \"6\"\n           x: y\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw := strings.Replace(base, tc.from, tc.to, 1)
			if raw == base {
				t.Fatalf("%q not in the base text", tc.from)
			}
			if _, ok := decodeFull([]byte(raw)); ok {
				t.Errorf("decodeFast read it; want a fallback:\n%s", raw)
			}
		})
	}
}

func FuzzFastDecode(f *testing.F) {
	for _, seed := range fastSeeds() {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkAgrees(t, raw)
	})
}

// fastSeeds are the YAML seeds of the fast decoders' fuzz targets:
// NodeFeatures, Nodes and a ConfigMap as documents and as items.
func fastSeeds() []string {
	return []string{
		kubectlNodeFeature,
		entry(kubectlNodeFeature, 0),
		entry(kubectlNodeFeature, 2),
		"- apiVersion: nfd.k8s-sigs.io/v1alpha1\n  kind: NodeFeature\n  metadata:\n    name: n\n  spec:\n    features:\n      flags:\n        a.b:\n          elements:\n            X: {}\n            Y:\n      instances:\n        c.d:\n          elements:\n          - attributes:\n              k: v\n          - {}\n          - null\n",
		"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata:\n  name: 'n'\n  labels:\n    \"a/b\": ~\nspec:\n  labels:\n    x: 0x1F\n    y: 1_000\n    z: .5\n    w: 2001-12-14\n",
		kubectlNode,
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    annotations:\n      config.kubernetes.io/path: a.yaml\n      x: ~\n  data:\n    k: v\n",
		entry(kubectlNode, 2),
	}
}

// kubectlNode is a Node as kubectl get -o yaml prints it.
const kubectlNode = `apiVersion: v1
kind: Node
metadata:
  annotations:
    node.alpha.kubernetes.io/ttl: "0"
    nfd.node.kubernetes.io/feature-labels: cpu-cpuid.AVX
  creationTimestamp: "2025-03-11T08:21:44Z"
  labels:
    kubernetes.io/hostname: worker-1
    node-role.kubernetes.io/worker: ""
    feature.node.kubernetes.io/cpu-cpuid.AVX: "true"
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:labels:
          .: {}
          f:kubernetes.io/hostname: {}
    manager: kubelet
    operation: Update
    time: "2025-03-11T08:21:44Z"
  name: worker-1
  resourceVersion: "48213377"
  uid: 6b0f4f8e-3c1d-4b0b-9a0e-521078790886
spec:
  podCIDR: 10.244.3.0/24
  podCIDRs:
  - 10.244.3.0/24
  providerID: metal://worker-1
  taints:
  - effect: NoSchedule
    key: nvidia.com/gpu
    value: present
  - effect: NoExecute
    key: example.com/drain
    timeAdded: "2025-11-24T06:00:00Z"
status:
  addresses:
  - address: 10.0.12.31
    type: InternalIP
  allocatable:
    cpu: "95"
    memory: 1045988288Ki
    pods: 110
    example.com/null: null
  capacity:
    cpu: "96"
    memory: 1056474048Ki
  conditions:
  - lastHeartbeatTime: "2025-11-24T06:00:00Z"
    message: kubelet is posting ready status
    reason: KubeletReady
    status: "True"
    type: Ready
  images:
  - names:
    - registry.k8s.io/nfd/node-feature-discovery:v0.19.0
    sizeBytes: 70123456
  nodeInfo:
    architecture: amd64
    kubeletVersion: v1.31.2
`

// TestNodeFastDecodeReadsWhatTheTreeReaderReads checks a kubectl Node,
// item-shaped and not, and the shapes it must leave to the tree reader.
func TestNodeFastDecodeReadsWhatTheTreeReaderReads(t *testing.T) {
	for _, raw := range []string{kubectlNode, entry(kubectlNode, 0), entry(kubectlNode, 2)} {
		if !checkAgreesNode(t, []byte(raw)) {
			t.Errorf("DecodeNodeFast fell back on a kubectl Node:\n%s", raw)
		}
	}
	for name, c := range map[string]struct{ from, to string }{
		"label-not-a-scalar":       {`node-role.kubernetes.io/worker: ""`, "node-role.kubernetes.io/worker: [a]"},
		"key-twice-in-status":      {"    type: InternalIP\n", "    type: InternalIP\n    type: Hostname\n"},
		"taint-not-a-mapping":      {"  - effect: NoSchedule\n", "  - NoSchedule\n  - effect: NoSchedule\n"},
		"invalid-name":             {"  name: worker-1\n", "  name: Worker_1\n"},
		"taints-not-a-sequence":    {"  taints:\n  - effect: NoSchedule\n", "  taints: {}\n  x:\n  - effect: NoSchedule\n"},
		"another-kind":             {"kind: Node\n", "kind: Namespace\n"},
		"metadata-twice":           {"spec:\n", "metadata: {}\nspec:\n"},
		"capacity-value-a-mapping": {`    cpu: "96"`, "    cpu:\n      x: y"},
	} {
		raw := strings.Replace(kubectlNode, c.from, c.to, 1)
		if raw == kubectlNode {
			t.Fatalf("%s: %q not in the Node", name, c.from)
		}
		if _, ok := DecodeNodeFast([]byte(raw)); ok {
			t.Errorf("%s: DecodeNodeFast read it; want a fallback:\n%s", name, raw)
		}
	}
}

// checkAgreesNode is checkNodeAgrees that also says whether the fast
// decoder read raw.
func checkAgreesNode(t *testing.T, raw []byte) bool {
	t.Helper()
	checkNodeAgrees(t, raw)
	_, ok := DecodeNodeFast(raw)
	return ok
}

func TestLeanKeepsFeatureNamesAndLoadsTheSpecAgain(t *testing.T) {
	raw := []byte(entry(kubectlNodeFeature, 0))
	full, _ := decodeFull(raw)
	d, ok := DecodeLean(raw, &FeatureNames{}, nil)
	if !ok {
		t.Fatal("DecodeLean fell back")
	}
	nf := d.Obj.(*objects.LeanNodeFeature).Names
	want := full.Obj.(*api.NodeFeature)
	if got := nf.Spec.Features.Flags["cpu.cpuid"].Elements; got != nil {
		t.Errorf("lean NodeFeature keeps its elements: %v", got)
	}
	for name := range want.Spec.Features.Attributes {
		if _, ok := nf.Spec.Features.Attributes[name]; !ok {
			t.Errorf("lean NodeFeature lost the feature name %s", name)
		}
	}
	if got := load(t, d, nil); !reflect.DeepEqual(got, &want.Spec) {
		t.Errorf("LoadSpec = %+v, want %+v", got, want.Spec)
	}
	if !reflect.DeepEqual(nf.Metadata, want.Metadata) {
		t.Errorf("lean metadata = %+v, want %+v", nf.Metadata, want.Metadata)
	}
}

// TestFastDecodeRefusesKeysGivenTwiceWhereItSkips checks the fields the
// fast decoder skips unread (managedFields, a Node's status): a key given
// twice there makes the ResourceList reader refuse the item, so the fast
// decoders must leave it to that path rather than read it.
func TestFastDecodeRefusesKeysGivenTwiceWhereItSkips(t *testing.T) {
	const nf = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata:\n" +
		"  managedFields:\n  - manager: a\n    %s: b\n" +
		"  name: n1\n  labels:\n    nfd.node.kubernetes.io/node-name: n1\n" +
		"spec:\n  features:\n    flags:\n      cpu.cpuid:\n        elements:\n          AVX: {}\n"
	if _, ok := decodeFull([]byte(strings.Replace(nf, "%s", "operation", 1))); !ok {
		t.Fatal("decodeFast refuses a plain NodeFeature with managedFields")
	}
	for _, dup := range []string{"manager", `"manager"`} {
		raw := []byte(strings.Replace(nf, "%s", dup, 1))
		if _, ok := decodeFull(raw); ok {
			t.Errorf("decodeFast reads a NodeFeature whose managedFields give %s twice", dup)
		}
		if _, ok := DecodeLean(raw, nil, nil); ok {
			t.Errorf("DecodeLean reads a NodeFeature whose managedFields give %s twice", dup)
		}
	}
	var many strings.Builder
	for i := range 40 {
		fmt.Fprintf(&many, "    f%d: x\n", i)
	}
	raw := []byte(strings.Replace(nf, "    %s: b\n", many.String()+"    f7: y\n", 1))
	if _, ok := decodeFull(raw); ok {
		t.Errorf("decodeFast reads a NodeFeature whose managedFields give f7 twice among 41 keys")
	}
}

// TestOtherFastDecodeReadsPassThroughObjects checks the kinds it reads and
// the ones it leaves to the general path.
func TestOtherFastDecodeReadsPassThroughObjects(t *testing.T) {
	for _, raw := range []string{
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    namespace: ns\n  data:\n    k: v\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  annotations:\n    config.kubernetes.io/path: d.yaml\nspec:\n  replicas: 1\n",
	} {
		checkOtherAgrees(t, []byte(raw))
		if _, _, ok := DecodeOtherFast([]byte(raw)); !ok {
			t.Errorf("DecodeOtherFast fell back on:\n%s", raw)
		}
	}
	for _, raw := range []string{
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n",
		"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: n\n",
		"apiVersion: v1\nkind: List\nitems: []\n",
		"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: r\n",
		"apiVersion: nfd.openshift.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: r\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n  k: w\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: c\n",
		"kind: ConfigMap\nmetadata:\n  name: c\n",
	} {
		if _, _, ok := DecodeOtherFast([]byte(raw)); ok {
			t.Errorf("DecodeOtherFast read what it must leave to the general path:\n%s", raw)
		}
	}
}

// decodeFull is decodeFast with a reader of its own: the whole
// NodeFeature, spec included, as a lean one's Load reads it again.
func decodeFull(raw []byte) (*objects.Decoded, bool) {
	return decodeFast(raw, newDecoder(raw))
}
