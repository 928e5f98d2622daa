package objects

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"

	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// InvalidName says why name cannot be the name of an object of kind, as
// the API server's validation (apimachinery) has it, or returns "" when it
// can: a Namespace name is an RFC 1123 label, a Node's and an NFD object's
// (NodeFeature, NodeFeatureRule, NodeFeatureGroup, served as custom
// resources) an RFC 1123 subdomain. Names become file paths
// (nodes/<name>.yaml), Nova provider names and text on terminals, so this
// is checked before a name is used for anything: no "..", "/", control
// character or 300-character name gets through.
func InvalidName(kind, name string) string {
	if name == "" {
		return "the name is empty"
	}
	var errs []string
	if kind == "Namespace" {
		errs = validation.IsDNS1123Label(name)
	} else {
		errs = validation.IsDNS1123Subdomain(name)
	}
	return strings.Join(errs, "; ")
}

// InvalidNamespace says why ns cannot be a namespace name, or "".
func InvalidNamespace(ns string) string {
	return InvalidName("Namespace", ns)
}

// ShowName quotes a name from the input for a message: Go-quoted (so
// control characters are escaped) and, past 64 bytes, cut with its length
// given, so that a 9 MB name does not become a 9 MB message.
func ShowName(name string) string {
	const maxShown = 64
	if len(name) <= maxShown {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%q... (%d bytes)", strings.ToValidUTF8(name[:maxShown], ""), len(name))
}

// metadataErrors checks the metadata of an object nfd-fn reads (an NFD
// object, a Node or a Namespace): it must be a mapping with a valid name
// and, when set, a valid namespace. Every problem is a field error; an
// object with one is rejected and never used.
func metadataErrors(n *yaml.Node, kind string) []*ys.FieldError {
	md := ys.Value(n, "metadata")
	switch {
	case md == nil || ys.IsNull(md):
		return []*ys.FieldError{fieldError(n, "metadata", "metadata is missing: every object needs metadata.name")}
	case md.Kind != yaml.MappingNode:
		return []*ys.FieldError{fieldError(md, "metadata", "metadata must be a mapping holding name, got "+ys.Describe(md))}
	}
	var errs []*ys.FieldError
	name := ys.Value(md, "name")
	switch {
	case name == nil || ys.IsNull(name) || (name.Kind == yaml.ScalarNode && name.Value == ""):
		errs = append(errs, fieldError(md, "metadata.name", "metadata.name is missing: every object needs a name"))
	case name.Kind != yaml.ScalarNode:
		errs = append(errs, fieldError(name, "metadata.name", "metadata.name must be a string, got "+ys.Describe(name)))
	default:
		if why := InvalidName(kind, name.Value); why != "" {
			e := fieldError(name, "metadata.name", fmt.Sprintf("%s is not a valid %s name: %s", ShowName(name.Value), kind, why))
			if SafeName(name.Value) {
				e.Msg += lenientNote
			}
			errs = append(errs, e)
		}
	}
	if ns := ys.Value(md, "namespace"); ns != nil && ns.Kind == yaml.ScalarNode && ns.Value != "" {
		if why := InvalidNamespace(ns.Value); why != "" {
			errs = append(errs, fieldError(ns, "metadata.namespace", fmt.Sprintf("%s is not a valid namespace name: %s", ShowName(ns.Value), why)))
		}
	}
	return errs
}

func fieldError(at *yaml.Node, path, msg string) *ys.FieldError {
	return &ys.FieldError{Path: path, Line: at.Line, Column: at.Column, Msg: msg}
}

// isNameError reports whether a field error is about the object's
// metadata or name (check object-name) rather than its schema.
func isNameError(e *ys.FieldError) bool {
	switch e.Path {
	case "metadata", "metadata.name", "metadata.namespace":
		return true
	}
	return false
}

// SafeName reports whether a name the API server may refuse is still safe
// to use as nfd-master's code uses it: as a file name, a Nova provider
// name and text, that is, a valid label value (letters, digits, "-", "_",
// ".", at most 63 characters, starting and ending with a letter or digit)
// or a valid subdomain. Such a name, upper case say, is reported but
// rendered, as nfd-master renders what its (fake, in a test) API server
// gave it; any other is left out.
func SafeName(name string) bool {
	if name == "" {
		return false
	}
	return len(validation.IsValidLabelValue(name)) == 0 || len(validation.IsDNS1123Subdomain(name)) == 0
}

// lenientNote ends the message of a name the API server refuses but that
// is safe to use (SafeName): the object is reported and still used.
const lenientNote = " (no cluster can hold it; nfd-fn uses it as nfd-master's code does)"

// rejects reports whether the decoding errors mean the object is not
// used: any error but a safe name the API server refuses, a value it
// stores otherwise than written (FieldError.Stored), and, with prune, an
// unknown field (pruned under fieldValidation Warn).
func rejects(errs []*ys.FieldError, prune bool) bool {
	for _, e := range errs {
		if !e.Stored && !strings.HasSuffix(e.Msg, lenientNote) && !(prune && isUnknownField(e)) {
			return true
		}
	}
	return false
}
