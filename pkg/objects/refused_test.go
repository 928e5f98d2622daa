package objects

import (
	"slices"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// A NodeFeature the API server refuses reaches no node: the set keeps its
// identity and annotations, and the names of its features, but not its
// values or labels (issue 34: a static error on 60,000 NodeFeatures within
// 20 times the input's size).
func TestRefusedNodeFeatureKeepsItsIdentityAndFeatureNamesOnly(t *testing.T) {
	d := Decode(doc(t, `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata:
  name: node-1
  namespace: nfd
  labels: {nfd.node.kubernetes.io/node-name: node-1}
  annotations: {nfd-fn.dev/ignore: NFD020}
spec:
  labels: {example.com/a: "x"}
  features:
    flags:
      vendor.flags: {elements: {a: {}}}
    attributes:
      kernel.version: {elements: {major: 6}}
    instances:
      vendor.devices: {elements: [{attributes: {id: "1"}}]}
`))
	if len(d.Errs) == 0 {
		t.Fatal("an int for a string: want a decoding error")
	}
	s := &Set{}
	s.Add(d, Origin{File: "f.yaml"})
	if len(s.Features) != 1 || !s.Features[0].Rejected {
		t.Fatalf("features = %+v, want one rejected", s.Features)
	}
	nf := s.Features[0].Obj
	if nf.Metadata.Name != "node-1" || nf.Metadata.Namespace != "nfd" || nf.Metadata.Annotations["nfd-fn.dev/ignore"] != "NFD020" {
		t.Errorf("metadata = %+v, want the name, namespace and annotations kept", nf.Metadata)
	}
	if nf.Metadata.Labels != nil || nf.Spec.Labels != nil || nf.Spec.Features.Attributes != nil ||
		nf.Spec.Features.Flags != nil || nf.Spec.Features.Instances != nil {
		t.Errorf("kept %+v, want no labels and no features", nf)
	}
	want := []string{"kernel.version", "vendor.devices", "vendor.flags"}
	if got := s.RefusedFeatureNames(); !slices.Equal(got, want) {
		t.Errorf("RefusedFeatureNames() = %q, want %q", got, want)
	}
}

// A NodeFeature the API server takes keeps its spec whole, and adds no
// refused names.
func TestAcceptedNodeFeatureKeepsItsSpec(t *testing.T) {
	d := Decode(doc(t, `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata: {name: node-1, labels: {nfd.node.kubernetes.io/node-name: node-1}}
spec:
  features:
    attributes:
      kernel.version: {elements: {major: "6"}}
`))
	s := &Set{}
	s.Add(d, Origin{})
	nf := s.Features[0].Obj
	if got := nf.Spec.Features.Attributes["kernel.version"].Elements["major"]; got != "6" || nf.Metadata.Labels[api.NodeNameLabel] != "node-1" {
		t.Errorf("kept %+v, want the spec and labels whole", nf)
	}
	if got := s.RefusedFeatureNames(); len(got) != 0 {
		t.Errorf("RefusedFeatureNames() = %q, want none", got)
	}
}

// A NodeFeature refused for its name alone (metadata, checked after the
// spec) is trimmed too.
func TestNodeFeatureRefusedForItsNameKeepsNoSpec(t *testing.T) {
	d := Decode(doc(t, `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata: {name: "a/b", labels: {nfd.node.kubernetes.io/node-name: a}}
spec:
  features:
    attributes:
      kernel.version: {elements: {major: "6"}}
`))
	if !rejects(d.Errs, true) {
		t.Fatalf("errors %v: want the name refused", d.Errs)
	}
	nf := d.Obj.(*api.NodeFeature)
	if nf.Spec.Features.Attributes != nil || nf.Metadata.Labels != nil || !slices.Equal(d.RefusedFeatures, []string{"kernel.version"}) {
		t.Errorf("kept %+v, refused features %q: want no spec and the feature's name", nf, d.RefusedFeatures)
	}
}

// A NodeFeature whose only fault is an unknown field is pruned, not
// refused, under fieldValidation=Warn, so its spec stays whole to the
// set; under Strict the set refuses it.
func TestNodeFeatureWithAnUnknownFieldKeepsItsSpecUnderWarn(t *testing.T) {
	const text = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeature
metadata: {name: node-1, labels: {nfd.node.kubernetes.io/node-name: node-1}}
spec:
  lables: {example.com/a: "x"}
  features:
    attributes:
      kernel.version: {elements: {major: "6"}}
`
	for _, strict := range []bool{false, true} {
		s := &Set{StrictFieldValidation: strict}
		s.Add(Decode(doc(t, text)), Origin{})
		f := s.Features[0]
		if f.Rejected != strict {
			t.Errorf("strict=%v: rejected=%v", strict, f.Rejected)
		}
		if !strict && f.Obj.Spec.Features.Attributes["kernel.version"].Elements["major"] != "6" {
			t.Errorf("strict=%v: kept %+v, want the features whole", strict, f.Obj.Spec)
		}
	}
}
