// Package admission judges NFD objects as a release's API server does,
// from the openAPIV3Schema of that release's CRDs (kept in crds/, copied
// from NFD's repository at each release tag): an object the schema
// refuses (a value outside an enum, a missing required field, a value of
// the wrong type) is rejected whole; a field the schema does not know is
// pruned, as the server does when the client does not ask for strict
// field validation. Only the schema subset NFD's CRDs use is read: type,
// enum, required, properties, additionalProperties and items.
package admission

import (
	"embed"
	"fmt"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/pkg/release"
)

//go:embed crds/*.yaml
var crdFiles embed.FS

// Schema is the part of an OpenAPI v3 schema the NFD CRDs use.
type Schema struct {
	Type                 string             `json:"type"`
	Enum                 []any              `json:"enum"`
	Required             []string           `json:"required"`
	Properties           map[string]*Schema `json:"properties"`
	AdditionalProperties *Schema            `json:"additionalProperties"`
	Items                *Schema            `json:"items"`
	Nullable             bool               `json:"nullable"`
	PreserveUnknown      bool               `json:"x-kubernetes-preserve-unknown-fields"`
}

type crd struct {
	Spec struct {
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Schema struct {
				OpenAPIV3Schema *Schema `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

var (
	loadOnce sync.Once
	// schemas maps a minor release and a kind to its v1alpha1 schema.
	schemas map[int]map[string]*Schema
	loadErr error
)

// SchemaFor returns the schema of kind (NodeFeatureRule, ...) in the CRDs
// of release v; nil when the release does not serve the kind.
func SchemaFor(v release.Version, kind string) (*Schema, error) {
	loadOnce.Do(load)
	if loadErr != nil {
		return nil, loadErr
	}
	return schemas[v.Minor][kind], nil
}

func load() {
	schemas = map[int]map[string]*Schema{}
	for _, line := range release.Lines() {
		tag := line.CRDs.String()
		data, err := crdFiles.ReadFile("crds/nfd-api-crds-" + tag + ".yaml")
		if err != nil {
			loadErr = err
			return
		}
		byKind := map[string]*Schema{}
		for _, doc := range splitDocuments(data) {
			var c crd
			if err := yaml.Unmarshal(doc, &c); err != nil {
				loadErr = fmt.Errorf("CRDs of %s: %w", tag, err)
				return
			}
			for _, v := range c.Spec.Versions {
				if v.Name == "v1alpha1" && v.Schema.OpenAPIV3Schema != nil {
					byKind[c.Spec.Names.Kind] = v.Schema.OpenAPIV3Schema
				}
			}
		}
		schemas[line.Minor] = byKind
	}
}
