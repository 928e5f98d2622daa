package admission

import (
	"fmt"
	"reflect"
	"slices"

	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// CRDMinors reads a CustomResourceDefinition (YAML or JSON) and returns
// the NFD minor releases whose CRD of the same kind has the same v1alpha1
// schema (the fields admission reads), oldest first: the releases whose
// API server admits objects as this CRD does. kind is the kind it serves;
// none when it is not one of NFD's CRDs or no release's schema matches.
func CRDMinors(obj []byte) (kind string, minors []int, err error) {
	loadOnce.Do(load)
	if loadErr != nil {
		return "", nil, loadErr
	}
	var c crd
	if err := yaml.Unmarshal(obj, &c); err != nil {
		return "", nil, fmt.Errorf("not a CustomResourceDefinition: %w", err)
	}
	kind = c.Spec.Names.Kind
	var schema *Schema
	for _, v := range c.Spec.Versions {
		if v.Name == "v1alpha1" {
			schema = v.Schema.OpenAPIV3Schema
		}
	}
	if schema == nil {
		return kind, nil, nil
	}
	for minor, byKind := range schemas {
		if s := byKind[kind]; s != nil && reflect.DeepEqual(s, schema) {
			minors = append(minors, minor)
		}
	}
	slices.Sort(minors)
	return kind, minors, nil
}

// SchemaRelease is the upstream release whose CRDs admit objects as the
// CRDs of minor do (the tag nfd-fn keeps them from).
func SchemaRelease(minor int) (release.Release, bool) {
	line, ok := release.LineOf(minor)
	if !ok {
		return release.Release{}, false
	}
	r, err := release.Parse(line.CRDs.String())
	return r, err == nil
}
