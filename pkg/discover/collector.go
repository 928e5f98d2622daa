package discover

import (
	"fmt"
	"sort"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// collector gathers the features and warnings of one source.
type collector struct {
	source   string
	features v1alpha1.Features
	warnings diag.List
	// confine withholds file contents from warnings (Options.Confine).
	confine bool
}

// newCollector returns an empty collector for source.
func newCollector(source string, confine bool) *collector {
	return &collector{source: source, features: newFeatures(), confine: confine}
}

// newFeatures returns a Features value with all three maps allocated.
func newFeatures() v1alpha1.Features {
	return v1alpha1.Features{
		Flags:      map[string]v1alpha1.FlagFeatureSet{},
		Attributes: map[string]v1alpha1.AttributeFeatureSet{},
		Instances:  map[string]v1alpha1.InstanceFeatureSet{},
	}
}

// warn records a warning for the collector's source. Its arguments must
// not quote file contents: use warnQuoting for those.
func (c *collector) warn(format string, args ...any) {
	c.warnings = append(c.warnings, warning(c.source, fmt.Sprintf(format, args...)))
}

// warnQuoting records a warning that quotes file contents; when contents
// are withheld the brief message, which must quote nothing read from a
// file, is recorded instead.
func (c *collector) warnQuoting(brief, format string, args ...any) {
	if c.confine {
		c.warnings = append(c.warnings, warning(c.source, brief))
		return
	}
	c.warn(format, args...)
}

// flags sets the flag feature <source>.<name>.
func (c *collector) flags(name string, elems []string) {
	m := make(map[string]v1alpha1.Nil, len(elems))
	for _, e := range elems {
		if k, ok := c.clean(name, e, ""); ok {
			m[k] = v1alpha1.Nil{}
		}
	}
	c.features.Flags[c.source+"."+name] = v1alpha1.FlagFeatureSet{Elements: m}
}

// attrs sets the attribute feature <source>.<name>.
func (c *collector) attrs(name string, elems map[string]string) {
	c.features.Attributes[c.source+"."+name] = v1alpha1.AttributeFeatureSet{Elements: c.cleanMap(name, elems)}
}

// instances sets the instance feature <source>.<name>.
func (c *collector) instances(name string, elems []map[string]string) {
	list := make([]v1alpha1.InstanceFeature, 0, len(elems))
	for _, e := range elems {
		list = append(list, v1alpha1.InstanceFeature{Attributes: c.cleanMap(name, e)})
	}
	c.features.Instances[c.source+"."+name] = v1alpha1.InstanceFeatureSet{Elements: list}
}

// cleanMap copies elems with every key and value passed through clean.
func (c *collector) cleanMap(feature string, elems map[string]string) map[string]string {
	m := make(map[string]string, len(elems))
	for _, k := range sortedKeys(elems) {
		ck, ok := c.clean(feature, k, "")
		if !ok {
			continue
		}
		if cv, ok := c.clean(feature, elems[k], ck); ok {
			m[ck] = cv
		}
	}
	return m
}

// clean applies cleanValue to a key (key == "") or to the value of key,
// dropping it with a warning when it cannot be carried.
func (c *collector) clean(feature, s, key string) (string, bool) {
	out, err := cleanValue(s)
	if err == nil {
		return out, true
	}
	what := "an element name"
	if key != "" {
		what = "the value of an element"
	}
	c.warn("%s.%s: dropping %s: %v", c.source, feature, what, err)
	return "", false
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
