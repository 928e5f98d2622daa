package objects

import (
	"fmt"
	"strings"
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
