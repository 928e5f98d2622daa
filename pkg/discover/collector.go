package discover

import (
	"fmt"
	"sort"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// collector gathers the features and warnings of one source.
type collector struct {
	source   string
	features v1alpha1.Features
	warnings []Warning
}

// newCollector returns an empty collector for source.
func newCollector(source string) *collector {
	return &collector{source: source, features: newFeatures()}
}

// newFeatures returns a Features value with all three maps allocated.
func newFeatures() v1alpha1.Features {
	return v1alpha1.Features{
		Flags:      map[string]v1alpha1.FlagFeatureSet{},
		Attributes: map[string]v1alpha1.AttributeFeatureSet{},
		Instances:  map[string]v1alpha1.InstanceFeatureSet{},
	}
}

// warn records a warning for the collector's source.
func (c *collector) warn(format string, args ...any) {
	c.warnings = append(c.warnings, Warning{Source: c.source, Msg: fmt.Sprintf(format, args...)})
}

// flags sets the flag feature <source>.<name>.
func (c *collector) flags(name string, elems []string) {
	c.features.Flags[c.source+"."+name] = flagSet(elems)
}

// attrs sets the attribute feature <source>.<name>.
func (c *collector) attrs(name string, elems map[string]string) {
	c.features.Attributes[c.source+"."+name] = attrSet(elems)
}

// instances sets the instance feature <source>.<name>.
func (c *collector) instances(name string, elems []map[string]string) {
	c.features.Instances[c.source+"."+name] = instanceSet(elems)
}

// flagSet builds a flag feature set; it is never nil.
func flagSet(elems []string) v1alpha1.FlagFeatureSet {
	m := make(map[string]v1alpha1.Nil, len(elems))
	for _, e := range elems {
		m[e] = v1alpha1.Nil{}
	}
	return v1alpha1.FlagFeatureSet{Elements: m}
}

// attrSet builds an attribute feature set; it is never nil.
func attrSet(elems map[string]string) v1alpha1.AttributeFeatureSet {
	m := make(map[string]string, len(elems))
	for k, v := range elems {
		m[k] = v
	}
	return v1alpha1.AttributeFeatureSet{Elements: m}
}

// instanceSet builds an instance feature set; it is never nil.
func instanceSet(elems []map[string]string) v1alpha1.InstanceFeatureSet {
	list := make([]v1alpha1.InstanceFeature, 0, len(elems))
	for _, e := range elems {
		list = append(list, v1alpha1.InstanceFeature{Attributes: e})
	}
	return v1alpha1.InstanceFeatureSet{Elements: list}
}

// mergeFeatures copies every feature set of src into dst.
func mergeFeatures(dst *v1alpha1.Features, src v1alpha1.Features) {
	for k, v := range src.Flags {
		dst.Flags[k] = v
	}
	for k, v := range src.Attributes {
		dst.Attributes[k] = v
	}
	for k, v := range src.Instances {
		dst.Instances[k] = v
	}
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
