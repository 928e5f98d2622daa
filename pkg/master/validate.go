package master

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// The validation errors nfd-master tells apart.
var (
	errNSNotAllowed        = errors.New("namespace is not allowed")
	errUnprefixedKey       = errors.New("unprefixed keys are not allowed")
	errInvalidTaintEffect  = errors.New("invalid taint effect")
	errEmptyTaintEffect    = errors.New("empty taint effect")
	errInvalidTaintValue   = errors.New("invalid taint value")
	featureSubNsSuffix     = "." + api.FeatureLabelNs
	profileSubNsSuffix     = "." + api.ProfileLabelNs
	annotationValueMaxSize = 1 << 10
)

// splitNs splits "prefix/name" into its parts; an unprefixed name has "".
func splitNs(full string) (string, string) {
	if ns, name, ok := strings.Cut(full, "/"); ok {
		return ns, name
	}
	return "", full
}

// isKubernetesNs reports whether ns is kubernetes.io or a subdomain of it.
func isKubernetesNs(ns string) bool {
	return ns == "kubernetes.io" || strings.HasSuffix(ns, ".kubernetes.io")
}

func isFeatureNs(ns string) bool {
	return ns == api.FeatureLabelNs || strings.HasSuffix(ns, featureSubNsSuffix)
}

// validateLabel checks a label as nfd-master does: a qualified name, a
// prefix (unless auto-prefixing is disabled), no kubernetes.io namespace
// other than the feature and profile ones, and a valid value.
func (o *Options) validateLabel(key, value string) error {
	if errs := k8svalidation.IsQualifiedName(key); len(errs) > 0 {
		return fmt.Errorf("invalid label key %q: %s", key, strings.Join(errs, "; "))
	}
	ns, _ := splitNs(key)
	if ns == "" {
		return o.unprefixed(release.UnprefixedNames)
	}
	if isKubernetesNs(ns) && !isFeatureNs(ns) && ns != api.ProfileLabelNs && !strings.HasSuffix(ns, profileSubNsSuffix) {
		return errNSNotAllowed
	}
	if errs := k8svalidation.IsValidLabelValue(value); len(errs) > 0 {
		return fmt.Errorf("invalid value %q: %s", value, strings.Join(errs, "; "))
	}
	return nil
}

func (o *Options) validateAnnotation(key, value string) error {
	if errs := k8svalidation.IsQualifiedName(key); len(errs) > 0 {
		return fmt.Errorf("invalid annotation key %q: %s", key, strings.Join(errs, "; "))
	}
	ns, _ := splitNs(key)
	if ns == "" {
		return o.unprefixed(release.UnprefixedAnnotations)
	}
	if isKubernetesNs(ns) && !isFeatureNs(ns) {
		return errNSNotAllowed
	}
	if len(value) > annotationValueMaxSize {
		return fmt.Errorf("invalid value: too long: feature annotations must not be longer than %d characters", annotationValueMaxSize)
	}
	return nil
}

func (o *Options) validateTaint(t *api.Taint) error {
	ns, _ := splitNs(t.Key)
	if ns == "" {
		return errUnprefixedKey
	}
	if isKubernetesNs(ns) && !isFeatureNs(ns) {
		return errNSNotAllowed
	}
	switch t.Effect {
	case "":
		return errEmptyTaintEffect
	case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		return nil
	}
	return fmt.Errorf("%w %q: must be NoSchedule, PreferNoSchedule or NoExecute", errInvalidTaintEffect, t.Effect)
}

func (o *Options) validateExtendedResource(key, value string) error {
	if errs := k8svalidation.IsQualifiedName(key); len(errs) > 0 {
		return fmt.Errorf("invalid name %q: %s", key, strings.Join(errs, "; "))
	}
	ns, _ := splitNs(key)
	if ns == "" {
		return o.unprefixed(release.UnprefixedNames)
	}
	if isKubernetesNs(ns) && !isFeatureNs(ns) {
		return errNSNotAllowed
	}
	if _, err := resource.ParseQuantity(value); err != nil {
		return fmt.Errorf("invalid value %q: %w", value, err)
	}
	return nil
}

// unprefixed is the verdict on an unprefixed name: an error normally; with
// auto-prefixing disabled, on the releases whose nfd-master has kept
// (capability kept), nfd-master accepts the name without checking the
// value any further.
func (o *Options) unprefixed(kept release.Capability) error {
	rel := o.NFDRelease()
	switch {
	case o.AutoPrefix:
		return errUnprefixedKey
	case !rel.Has(kept):
		first, _ := kept.First()
		return fmt.Errorf("%w (NFD %s refuses them even with auto-prefixing off; %s keeps them)", errUnprefixedKey, rel, first)
	}
	return nil
}

// isDeniedNs applies denyLabelNs: exact names, and "*suffix" entries as
// suffix matches.
func (o *Options) isDeniedNs(ns string) bool {
	for _, d := range o.DenyLabelNs {
		if suffix, ok := strings.CutPrefix(d, "*"); ok {
			if strings.HasSuffix(ns, strings.TrimLeft(suffix, "*")) {
				return true
			}
		} else if ns == d {
			return true
		}
	}
	return false
}

func (o *Options) isExtraNs(ns string) bool {
	for _, e := range o.ExtraLabelNs {
		if e == ns {
			return true
		}
	}
	return false
}

// prefixLabels returns a copy of m with unprefixed keys put in the feature
// namespace (a prefixed twin in m wins), unless auto-prefixing is off.
func (o *Options) prefixLabels(m map[string]string) map[string]string {
	return o.prefix(m, api.FeatureLabelNs)
}

func (o *Options) prefix(m map[string]string, ns string) map[string]string {
	if !o.AutoPrefix || m == nil {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if strings.Contains(k, "/") {
			out[k] = v
			continue
		}
		full := ns + "/" + k
		if _, twin := m[full]; !twin {
			out[full] = v
		}
	}
	return out
}

// IsTaintEffectError reports a taint refused for its effect.
func IsTaintEffectError(err error) bool {
	return errors.Is(err, errInvalidTaintEffect) || errors.Is(err, errEmptyTaintEffect)
}

// IsTaintValueError reports a taint refused for its value.
func IsTaintValueError(err error) bool { return errors.Is(err, errInvalidTaintValue) }
