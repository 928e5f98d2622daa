package lint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FeatureCatalog declares features producers other than nfd-worker
// publish (topograph's network topology, a vendor's daemon writing
// NodeFeatures): their names, types and element names. A rule reading a
// declared feature is checked as strictly as one reading nfd-worker's: a
// misspelt element, or a feature of a declared domain the catalogue does
// not list, is an error rather than a warning.
type FeatureCatalog struct {
	features map[string]catalogueEntry
	domains  map[string]bool
}

// catalogFile is a feature catalogue file's shape.
type catalogFile struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Features   []struct {
		Name     string   `yaml:"name"`
		Type     string   `yaml:"type"`
		Elements []string `yaml:"elements"`
	} `yaml:"features"`
}

// FeatureCatalogKind is the kind of a feature catalogue file (its
// apiVersion nfd-fn.dev/v1alpha1); both may be left out.
const FeatureCatalogKind = "FeatureCatalog"

// ReadFeatureCatalog reads a feature catalogue:
//
//	apiVersion: nfd-fn.dev/v1alpha1
//	kind: FeatureCatalog
//	features:
//	  - name: topograph.fabric   # domain.feature
//	    type: attribute          # flag, attribute or instance
//	    elements: [tier-1, tier-2, tier-3]   # omitted: any element
//
// from is named in errors (a file, or the functionConfig's field).
func ReadFeatureCatalog(data []byte, from string) (*FeatureCatalog, error) {
	var f catalogFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", from, err)
	}
	if f.Kind != "" && f.Kind != FeatureCatalogKind {
		return nil, fmt.Errorf("%s: kind %q: want %s", from, f.Kind, FeatureCatalogKind)
	}
	c := &FeatureCatalog{features: map[string]catalogueEntry{}, domains: map[string]bool{}}
	for i, feat := range f.Features {
		at := fmt.Sprintf("%s: features[%d]", from, i)
		name := strings.ToLower(feat.Name)
		domain, rest, ok := strings.Cut(name, ".")
		switch {
		case !ok || domain == "" || rest == "":
			return nil, fmt.Errorf("%s.name %q: want domain.feature", at, feat.Name)
		case builtinDomains[domain]:
			return nil, fmt.Errorf("%s.name %q: nfd-worker owns domain %q; a catalogue declares other producers' features", at, feat.Name, domain)
		case !slices.Contains([]featureKind{flagFeature, attributeFeature, instanceFeature}, featureKind(feat.Type)):
			return nil, fmt.Errorf("%s.type %q: want flag, attribute or instance", at, feat.Type)
		}
		if _, dup := c.features[name]; dup {
			return nil, fmt.Errorf("%s.name %q: declared twice", at, feat.Name)
		}
		c.features[name] = catalogueEntry{kinds: []featureKind{featureKind(feat.Type)}, elements: feat.Elements}
		c.domains[domain] = true
	}
	return c, nil
}

// lookup finds a declared feature; declaredDomain says whether the
// catalogue declares features of name's domain at all.
func (c *FeatureCatalog) lookup(name string) (entry catalogueEntry, ok, declaredDomain bool) {
	if c == nil {
		return catalogueEntry{}, false, false
	}
	entry, ok = c.features[name]
	domain, _, _ := strings.Cut(name, ".")
	return entry, ok, c.domains[domain]
}

// names are the declared features, sorted.
func (c *FeatureCatalog) names() []string {
	out := make([]string, 0, len(c.features))
	for n := range c.features {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
