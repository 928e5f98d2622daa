package nova

import (
	"fmt"
	"regexp"
	"strings"
)

// FeatureNs is NFD's default label and resource namespace. It is dropped
// from names before they become traits or resource classes, as NFD drops it
// from its tracking annotations; any other prefix is kept.
const FeatureNs = "feature.node.kubernetes.io/"

// customName matches a valid custom resource class or trait name.
var customName = regexp.MustCompile(`^CUSTOM_[A-Z0-9_]+$`)

// CheckCustomName reports why name is not a valid custom resource class or
// trait name, or nil: upper-case letters, digits and underscores only, the
// CUSTOM_ prefix, at most MaxNameLength characters.
func CheckCustomName(name string) error {
	switch {
	case len(name) > MaxNameLength:
		return fmt.Errorf("%d characters; placement allows at most %d", len(name), MaxNameLength)
	case !strings.HasPrefix(name, CustomPrefix):
		return fmt.Errorf("only CUSTOM_* names may be set in a provider config (standard ones belong to the virt driver)")
	case !customName.MatchString(name):
		return fmt.Errorf("a name is CUSTOM_ followed by upper-case letters, digits and underscores")
	}
	return nil
}

// TraitName is the trait for a label: CUSTOM_ and the label key, sanitised;
// when the value is neither empty nor "true" the value is appended, so that
// cpu-model.vendor_id=Intel becomes CUSTOM_CPU_MODEL_VENDOR_ID_INTEL.
func TraitName(key, value string) (string, error) {
	if value == "" || value == "true" {
		return CustomName(key)
	}
	return CustomName(key + "_" + value)
}

// CustomName makes a custom resource class or trait name from a label key
// or extended resource name: the feature.node.kubernetes.io/ prefix is
// dropped, letters are upper-cased, every run of other characters becomes
// one underscore, underscores at either end are trimmed, and CUSTOM_ is
// put in front. It fails when nothing is left or the name is too long.
func CustomName(source string) (string, error) {
	s := strings.TrimPrefix(source, FeatureNs)
	var b strings.Builder
	b.WriteString(CustomPrefix)
	pendingSep := false
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			pendingSep = true
			continue
		}
		if pendingSep && b.Len() > len(CustomPrefix) {
			b.WriteByte('_')
		}
		pendingSep = false
		b.WriteRune(c)
	}
	name := b.String()
	if name == CustomPrefix {
		return "", fmt.Errorf("%q has no letters or digits to make a name of", source)
	}
	if len(name) > MaxNameLength {
		return "", fmt.Errorf("%s is %d characters; placement allows at most %d", name, len(name), MaxNameLength)
	}
	return name, nil
}
