package objects

import (
	"fmt"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// LeanNodeFeature is a NodeFeature read for a fleet (internal/fastread's
// DecodeLean): its metadata, spec.labels and the names of its features
// are held, never their elements. Load decodes the whole spec from the
// object's text again whenever the node is rendered, so that a fleet
// holds one node's features at a time rather than every node's. The text
// lies in an input the set does not hold open forever: once that input
// is closed, Load is an error.
type LeanNodeFeature struct {
	// Names is the NodeFeature with only the names of its features: what
	// the checks read (the names may be shared with other NodeFeatures:
	// read only). Its spec is not the object's spec; Load is.
	Names *api.NodeFeature
	// Text is where Load decodes the spec from.
	Text SpecText
}

// SpecText is where a lean NodeFeature's spec is decoded from again.
type SpecText interface {
	// LoadSpec decodes the spec, keeping only the features whose names
	// (or lower-cased names) only holds (every feature when only is nil):
	// the others are checked as usual but not kept, which spares decoding
	// the features no rule reads. It fails when the text can no longer be
	// read (its input was closed).
	LoadSpec(only map[string]bool) (*api.NodeFeatureSpec, error)
}

// Load decodes the NodeFeature's spec anew (see SpecText.LoadSpec). The
// error names the object.
func (l *LeanNodeFeature) Load(only map[string]bool) (*api.NodeFeatureSpec, error) {
	spec, err := l.Text.LoadSpec(only)
	if err != nil {
		return nil, fmt.Errorf("reading %s again: %w", FeatureRef(l.Names), err)
	}
	return spec, nil
}
