package objects

import (
	"maps"
	"slices"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// keepIdentity trims a NodeFeature the API server refuses to what is
// still asked of it, its name, namespace and annotations (the ignore
// annotation, the worker's version), and returns the names of its
// features, which the set keeps once for all such NodeFeatures
// (Set.RefusedFeatureNames). Its spec and labels go: it reaches no node,
// and a static error on each of 60,000 NodeFeatures would otherwise hold
// every spec (issue 34's memory limit: 20 times the input).
func keepIdentity(nf *api.NodeFeature) []string {
	f := &nf.Spec.Features
	names := slices.Concat(slices.Collect(maps.Keys(f.Flags)), slices.Collect(maps.Keys(f.Attributes)), slices.Collect(maps.Keys(f.Instances)))
	nf.Metadata.Labels = nil
	nf.Spec = api.NodeFeatureSpec{}
	return names
}

// addRefusedFeatures records the feature names of a refused NodeFeature.
func (s *Set) addRefusedFeatures(names []string) {
	if len(names) == 0 {
		return
	}
	if s.refusedFeatures == nil {
		s.refusedFeatures = map[string]bool{}
	}
	for _, n := range names {
		s.refusedFeatures[n] = true
	}
}

// RefusedFeatureNames are the feature names the NodeFeatures the API
// server refuses carry, sorted: their specs are not kept, but what they
// name is still the input's (third-party features a rule may use).
func (s *Set) RefusedFeatureNames() []string {
	return slices.Sorted(maps.Keys(s.refusedFeatures))
}
