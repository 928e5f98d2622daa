package objects

import (
	"fmt"
	"slices"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// The API server treats a field a CRD's schema does not know (a misspelt
// one, NFD003, or one a newer release added, NFD301) as the client's
// fieldValidation asks: kubectl apply sends Strict and the create is
// refused with a strict decoding error; client-go sends nothing, which
// means Warn (Helm, operators and GitOps controllers), and the field is
// pruned with a warning. These words say which one a message assumes,
// in the API server's own terms.

// UnknownFieldPruned is what a message about an unknown field at path
// (its full field path) says under fieldValidation Warn.
func UnknownFieldPruned(path string) string {
	return fmt.Sprintf("pruned under fieldValidation=Warn, client-go/Helm's default (Warning: unknown field %s), so nfd-master never sees it; "+
		"kubectl apply (fieldValidation=Strict) refuses the object", quotePath(path))
}

// UnknownFieldRefused is what a message about an unknown field at path in
// an object of kind says under fieldValidation Strict.
func UnknownFieldRefused(kind, path string) string {
	return fmt.Sprintf("kubectl apply (fieldValidation=Strict) refuses this %s whole: strict decoding error: unknown field %s "+
		"(under fieldValidation=Warn, client-go/Helm's default, it is pruned)", kind, quotePath(path))
}

// Invalid is how the API server begins its refusal of the object of kind
// in API group named name: NodeFeatureRule.nfd.k8s-sigs.io "x" is invalid.
func Invalid(kind, group, name string) string {
	return fmt.Sprintf("%s.%s %q is invalid", kind, group, name)
}

// TypeInvalid is the API server's schema validator's words for a value
// of JSON type got at path where the schema takes want: Invalid value:
// "integer": spec.x in body must be of type string: "integer".
func TypeInvalid(path, want, got string) string {
	return fmt.Sprintf("Invalid value: %q: %s in body must be of type %s: %q", got, path, want, got)
}

// isNFD reports an object of a kind nfd-master serves, in NFD's API
// group or the OpenShift operator's: its CRD's schema judges its types.
func isNFD(ref diag.ObjectRef) bool {
	group := groupOf(ref.APIVersion)
	return slices.Contains(nfdKinds, ref.Kind) && (group == api.Group || group == "nfd.openshift.io")
}

// TypeRefused is what a message about a value of the wrong type (NFD002)
// in the NFD object ref says first: the API server's refusal, whatever
// the fieldValidation.
func TypeRefused(ref diag.ObjectRef, path, want, got string) string {
	path = ys.ServerPath(path)
	return fmt.Sprintf("the API server refuses this %s whole: %s: %s: %s",
		ref.Kind, Invalid(ref.Kind, groupOf(ref.APIVersion), ref.Name), path, TypeInvalid(path, want, got))
}

// typeRefusal is the API server's answer to the value of the wrong type
// e names. A mapping where no object goes also has keys the server's
// pruning does not know: under fieldValidation Strict (prune false) it
// refuses the object for them while decoding, before its schema is
// checked; under Warn it warns about them and refuses the object for the
// value's type.
func typeRefusal(ref diag.ObjectRef, e *ys.FieldError, prune bool) string {
	refused := TypeRefused(ref, e.Path, e.Want, e.Got)
	if len(e.Pruned) == 0 {
		return refused
	}
	unknown := make([]string, len(e.Pruned))
	for i, p := range e.Pruned {
		unknown[i] = "unknown field " + quotePath(p)
	}
	if prune {
		return fmt.Sprintf("%s (after its warnings under fieldValidation=Warn, client-go/Helm's default: %s)", refused, strings.Join(unknown, ", "))
	}
	strict := make([]string, len(unknown))
	for i, u := range unknown {
		strict[i] = "strict decoding error: " + u
	}
	return fmt.Sprintf("kubectl apply (fieldValidation=Strict) refuses this %s whole: %s (under fieldValidation=Warn, client-go/Helm's default, %s)",
		ref.Kind, strings.Join(strict, "; "), refused)
}

// quotePath quotes a field path for a message as the API server does
// (Go-quoted) and, past 256 bytes, cut with its length given: a
// megabyte-long misspelt key is not repeated whole.
func quotePath(path string) string {
	const maxShown = 256
	if len(path) <= maxShown {
		return fmt.Sprintf("%q", path)
	}
	return fmt.Sprintf("%q... (%d bytes)", strings.ToValidUTF8(path[:maxShown], ""), len(path))
}
