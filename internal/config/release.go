package config

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// releaseKey is a setting only the nfd-master of some releases has:
// given for another release it is an error and is not applied (undo puts
// nfd-master's default back).
type releaseKey struct {
	name string
	cap  release.Capability
	undo func(o *master.Options)
}

// releaseKeys are the settings of some releases only: nfd-master's
// restrictions arrive in v0.17, autoDefaultNs leaves in v0.18.
var releaseKeys = []releaseKey{
	{"disableLabels", release.Restrictions, func(o *master.Options) { o.DisableLabels = false }},
	{"disableExtendedResources", release.Restrictions, func(o *master.Options) { o.DisableExtendedResources = false }},
	{"disableAnnotations", release.Restrictions, func(o *master.Options) { o.DisableAnnotations = false }},
	{"denyNodeFeatureLabels", release.Restrictions, func(o *master.Options) { o.DenyNodeFeatureLabels = false }},
	{"allowOverwrite", release.Restrictions, func(o *master.Options) { o.AllowOverwrite = true }},
	{"nodeFeatureNamespaceSelector", release.Restrictions, func(o *master.Options) { o.NamespaceSelector = nil }},
	{"autoDefaultNs", release.AutoDefaultNs, func(*master.Options) {}},
}

// givenKey is a release key the functionConfig sets, at field.
type givenKey struct {
	key   releaseKey
	field string
}

// resolveRelease reads nfdVersion and strictFieldValidation, notes the
// release keys given and applies the release (SetRelease); the problems of
// those keys are the release's, known once it is settled
// (ReleaseProblems).
func (fc *FunctionConfig) resolveRelease(s *Settings) diag.List {
	var problems diag.List
	rel := release.Default()
	if fc.NfdVersion != "" {
		r, err := release.Parse(fc.NfdVersion)
		if err != nil {
			problems = append(problems, cfgError(fc.field("nfdVersion"), err.Error()))
		} else {
			rel, s.ReleaseGiven = r, true
			rel.By = "nfdVersion"
		}
	}
	if fc.CrdVersion != "" {
		if p := s.UseCRDs(fc.CrdVersion); p != nil {
			problems = append(problems, cfgError(fc.field("crdVersion"), p[0].Message))
		}
	}
	setBool(&s.StrictFieldValidation, fc.StrictFieldValidation)
	s.StrictFieldValidationGiven = fc.StrictFieldValidation != nil
	for _, k := range releaseKeys {
		if ck, ok := configKeyNamed(k.name); ok && ck.isSet(fc) {
			s.releaseKeys = append(s.releaseKeys, givenKey{key: k, field: fc.field(k.name)})
		}
	}
	s.autoDefaultNs = fc.AutoDefaultNs
	s.configured = s.Options
	s.SetRelease(rel)
	return problems
}

// UseRelease makes the release named (the command line's --nfd-version)
// the one rendered as, whatever nfdVersion says.
func (s *Settings) UseRelease(name string) diag.List {
	rel, err := release.Parse(name)
	if err != nil {
		return diag.List{cfgError("nfdVersion", err.Error())}
	}
	s.ReleaseGiven = true
	rel.By = "--nfd-version"
	s.SetRelease(rel)
	return nil
}

// UseCRDs makes the API server admit objects with the CRDs of the
// release named (crdVersion, --crd-version), whatever release is
// rendered as.
func (s *Settings) UseCRDs(name string) diag.List {
	rel, err := release.Parse(name)
	if err != nil {
		return diag.List{cfgError("crdVersion", err.Error())}
	}
	s.CRDs = rel
	s.SetRelease(s.Options.NFDRelease())
	return nil
}

// SetRelease makes rel the release rendered as, from the settings as
// configured: those its nfd-master does not have are not applied
// (ReleaseProblems says so), and autoDefaultNs: false turns
// auto-prefixing off where it exists.
func (s *Settings) SetRelease(rel release.Release) {
	s.Options = s.configured
	o := &s.Options
	o.Release = rel
	if s.CRDs.Name != "" {
		o.Release = rel.WithCRDs(s.CRDs)
	}
	for _, g := range s.releaseKeys {
		if !rel.Has(g.key.cap) {
			g.key.undo(o)
		}
	}
	if s.autoDefaultNs != nil && !*s.autoDefaultNs && rel.Has(release.AutoDefaultNs) {
		o.AutoPrefix = false
	}
}

// ReleaseProblems are the settings given that the release rendered as
// does not have: errors naming the releases that have them.
func (s *Settings) ReleaseProblems() diag.List {
	rel := s.Options.NFDRelease()
	var problems diag.List
	for _, g := range s.releaseKeys {
		if !rel.Has(g.key.cap) {
			problems = append(problems, cfgError(g.field, fmt.Sprintf("%s is not a setting of NFD %s's nfd-master (%s): ignored", g.key.name, rel, capabilitySpan(g.key.cap))))
		}
	}
	return problems
}

// capabilitySpan says which upstream releases have a capability.
func capabilitySpan(c release.Capability) string {
	first, _ := c.First()
	last, _ := c.Last()
	switch {
	case last == release.Latest:
		return fmt.Sprintf("it has it from %s on", first)
	case first == release.Upstreams()[0]:
		return fmt.Sprintf("%s and earlier have it", last)
	}
	return fmt.Sprintf("%s to %s have it", first, last)
}

// MasterShown takes nfd-master's namespace from the input (the namespace
// of its Deployment) when the configuration does not name it: the
// namespace is then known (master.Options.NamespaceKnown). An empty
// namespace says nothing.
func (s *Settings) MasterShown(namespace string) {
	for _, o := range []*master.Options{&s.configured, &s.Options} {
		if namespace != "" && !o.NamespaceKnown {
			o.Namespace, o.NamespaceKnown = namespace, true
		}
	}
}
