package master

import (
	"fmt"
	"strings"

	k8svalidation "k8s.io/apimachinery/pkg/util/validation"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Verdict is what nfd-master would do with one output a rule writes
// literally: nothing (nil), drop it as invalid (an error severity) or drop
// it by policy (a warning severity).
type Verdict struct {
	Severity diag.Severity
	Err      error
}

// CheckLabel judges a label as a rule writes it (before auto-prefixing),
// with its literal value. A value starting with "@" is resolved per node
// and is not judged here.
func (o *Options) CheckLabel(key, value string) *Verdict {
	full := o.fullName(key, api.FeatureLabelNs)
	if strings.HasPrefix(value, "@") {
		value = ""
	}
	if sev, err := o.labelPolicy(full, value); err != nil {
		return &Verdict{Severity: sev, Err: err}
	}
	return nil
}

// CheckAnnotation judges an annotation a rule writes.
func (o *Options) CheckAnnotation(key, value string) *Verdict {
	return errVerdict(o.validateAnnotation(o.fullName(key, api.FeatureAnnotationNs), value))
}

// CheckExtendedResource judges an extended resource a rule writes; an "@"
// value is resolved per node and only the name is judged.
func (o *Options) CheckExtendedResource(key, value string) *Verdict {
	if strings.HasPrefix(value, "@") {
		value = "0"
	}
	return errVerdict(o.validateExtendedResource(o.fullName(key, api.FeatureLabelNs), value))
}

// CheckTaint judges a taint a rule sets. Taints are never auto-prefixed.
func (o *Options) CheckTaint(t api.Taint) *Verdict {
	if err := o.validateTaint(&t); err != nil {
		return &Verdict{Severity: dropSeverity(err), Err: err}
	}
	if errs := validateTaintValue(t.Value); errs != nil {
		return &Verdict{Severity: diag.Error, Err: errs}
	}
	return nil
}

func validateTaintValue(v string) error {
	if v == "" {
		return nil
	}
	if errs := k8svalidation.IsValidLabelValue(v); len(errs) > 0 {
		return fmt.Errorf("%w %q: %s (the API server rejects the node update)", errInvalidTaintValue, v, strings.Join(errs, "; "))
	}
	return nil
}

func errVerdict(err error) *Verdict {
	if err == nil {
		return nil
	}
	return &Verdict{Severity: dropSeverity(err), Err: err}
}

// fullName is the name nfd-master ends up with after auto-prefixing.
func (o *Options) fullName(key, ns string) string {
	if !o.AutoPrefix || strings.Contains(key, "/") {
		return key
	}
	return ns + "/" + key
}
