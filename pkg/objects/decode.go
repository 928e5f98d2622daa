package objects

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Class says what a decoded document is to nfd-fn.
type Class int

// The classes of documents.
const (
	// Other is a Kubernetes object nfd-fn does not read.
	Other Class = iota
	// NFD is a NodeFeature, NodeFeatureRule or NodeFeatureGroup.
	NFD
	// KubeNode is a v1 Node.
	KubeNode
	// KubeNamespace is a v1 Namespace (for nfd-master's
	// nodeFeatureNamespaceSelector).
	KubeNamespace
	// UnknownNFD is an object of NFD's API group that nfd-fn does not
	// know: a kind it does not read or an API version nfd-master does not
	// serve.
	UnknownNFD
	// NotObject is a document that is not a mapping.
	NotObject
)

// Decoded is one YAML document read as an object. Decode is safe to run
// in parallel; Set.Add then files the result.
type Decoded struct {
	Class Class
	Ref   diag.ObjectRef
	// Obj is *api.NodeFeature, *LeanNodeFeature (a NodeFeature read
	// lean), *api.NodeFeatureRule, *api.NodeFeatureGroup, *Node or
	// *Namespace; nil for the other classes.
	Obj any
	// Errs are the strict decoding errors; non-empty means rejected.
	Errs []*ys.FieldError
	// Alias marks an NFD object written in an alias API group (the
	// OpenShift NFD operator's), decoded as its upstream kind.
	Alias bool
	// RefusedFeatures are the feature names of a NodeFeature the API
	// server refuses, whose spec Decode lets go (keepIdentity).
	RefusedFeatures []string
}

// Decode reads one document (a mapping node). It never fails: what is
// wrong is in Class and Errs.
func Decode(n *yaml.Node) *Decoded {
	if n == nil || n.Kind != yaml.MappingNode {
		return &Decoded{Class: NotObject}
	}
	md := ys.Mapping(n, "metadata")
	d := &Decoded{Ref: diag.ObjectRef{APIVersion: ys.Scalar(n, "apiVersion"), Kind: ys.Scalar(n, "kind"),
		Namespace: ys.Scalar(md, "namespace"), Name: ys.Scalar(md, "name")}}
	switch {
	case d.Ref.APIVersion == "v1" && d.Ref.Kind == "Node":
		d.Class, d.Obj = KubeNode, ReadNode(n)
	case d.Ref.APIVersion == "v1" && d.Ref.Kind == "Namespace":
		d.Class, d.Obj = KubeNamespace, &Namespace{Name: d.Ref.Name, Labels: ys.StringMap(ys.Mapping(md, "labels"))}
	case d.Ref.APIVersion == api.APIVersion:
		d.decodeNFD(n)
	case d.openShiftAlias():
		d.decodeNFD(n)
		d.Alias = true
	case meantNFD(d.Ref):
		d.Class = UnknownNFD
	}
	if d.Class == NFD || d.Class == KubeNode || d.Class == KubeNamespace {
		d.Errs = addNew(d.Errs, metadataErrors(n, d.Ref.Kind))
	}
	// Refused under either fieldValidation: an unknown field alone is
	// pruned under Warn, and which one applies is the Set's to know.
	if nf, ok := d.Obj.(*api.NodeFeature); ok && rejects(d.Errs, true) {
		d.RefusedFeatures = keepIdentity(nf)
	}
	return d
}

// addNew appends the errors of more at paths errs does not report yet, so
// that the metadata check does not repeat what strict decoding found.
func addNew(errs, more []*ys.FieldError) []*ys.FieldError {
	for _, m := range more {
		dup := false
		for _, e := range errs {
			dup = dup || e.Path == m.Path
		}
		if !dup {
			errs = append(errs, m)
		}
	}
	return errs
}

// Rejected reports whether d's errors keep the object from being used:
// any but a value the API server stores otherwise than written (a YAML
// 1.1 boolean key), a name it refuses that is safe to use, and, with
// prune (fieldValidation Warn), an unknown field.
func (d *Decoded) Rejected(prune bool) bool { return rejects(d.Errs, prune) }

func (d *Decoded) decodeNFD(n *yaml.Node) {
	var out any
	switch d.Ref.Kind {
	case api.KindNodeFeature:
		out = &api.NodeFeature{}
	case api.KindNodeFeatureRule:
		out = &api.NodeFeatureRule{}
	case api.KindNodeFeatureGroup:
		out = &api.NodeFeatureGroup{}
	default:
		d.Class = UnknownNFD
		return
	}
	d.Class, d.Obj = NFD, out
	d.Errs = decoder.Decode(n, out, "")
}

// nfdKinds are the kinds nfd-master serves.
var nfdKinds = []string{api.KindNodeFeature, api.KindNodeFeatureGroup, api.KindNodeFeatureRule}

// meantNFD reports an object meant for NFD outside its API: in NFD's
// group, in a group one typo away from it (nfd.k8s.sigs.io), or of an NFD
// kind in another group (the OpenShift alias aside, which Decode reads).
func meantNFD(ref diag.ObjectRef) bool {
	group := groupOf(ref.APIVersion)
	return group == api.Group || suggest.Closest(group, []string{api.Group}) != "" ||
		slices.Contains(nfdKinds, ref.Kind) || strings.Contains(group, "nfd") && suggest.Closest(ref.Kind, nfdKinds) != ""
}

// ReadsKind reports the objects Decode reads, or whose reading a caller
// expands (a v1 List), rather than passing them through: v1 Nodes,
// Namespaces and Lists, NFD's group and its alias, and what meantNFD
// catches. The fast readers leave these to Decode.
func ReadsKind(ref diag.ObjectRef) bool {
	if ref.APIVersion == "v1" {
		switch ref.Kind {
		case "Node", "Namespace", "List":
			return true
		}
	}
	group := groupOf(ref.APIVersion)
	return group == api.Group || group == groupOf(OpenShiftAPIVersion) || meantNFD(ref)
}

func groupOf(apiVersion string) string {
	group, _, _ := strings.Cut(apiVersion, "/")
	return group
}

// Add files a decoded document under its kind and returns what is wrong
// with it: a document that is not a mapping, strict decoding errors,
// missing or invalid metadata (names are checked here, once, before any
// becomes a file path), an unknown NFD kind or API version, an object
// defined twice. An object with errors is filed as Rejected (a Namespace
// is left out) and never used. Other objects are not added and give no
// diagnostic; the caller decides whether they are worth a note (see
// OtherNote).
func (s *Set) Add(d *Decoded, o Origin) diag.List {
	s.index = nil
	var ds diag.List
	if d.Alias {
		if s.NoOpenShiftAlias {
			return diag.List{unknownNFD(d, o)}
		}
		ds = append(ds, aliasNote(d, o))
	}
	switch d.Class {
	case NotObject:
		return diag.List{notObject(o)}
	case UnknownNFD:
		return diag.List{unknownNFD(d, o)}
	case KubeNode:
		ds = append(ds, s.supersede(d.Ref, o, len(s.Nodes))...)
		s.Nodes = append(s.Nodes, Object[*Node]{Obj: d.Obj.(*Node), Origin: o, Rejected: rejects(d.Errs, false)})
		ds = append(ds, fieldErrors(d, o, false)...)
	case KubeNamespace:
		ds = append(ds, fieldErrors(d, o, false)...)
		if !rejects(d.Errs, false) {
			s.Namespaces = append(s.Namespaces, Object[*Namespace]{Obj: d.Obj.(*Namespace), Origin: o})
		}
	case NFD:
		rejected := rejects(d.Errs, !s.StrictFieldValidation)
		switch obj := d.Obj.(type) {
		case *api.NodeFeature:
			ds = append(ds, s.supersede(d.Ref, o, len(s.Features))...)
			s.Features = append(s.Features, Object[*api.NodeFeature]{Obj: obj, Origin: o, Rejected: rejected})
			s.addRefusedFeatures(d.RefusedFeatures)
		case *LeanNodeFeature:
			ds = append(ds, s.supersede(d.Ref, o, len(s.Features))...)
			s.Features = append(s.Features, Object[*api.NodeFeature]{Obj: obj.Names, Origin: o, Rejected: rejected, Lean: obj})
		case *api.NodeFeatureRule:
			ds = append(ds, s.supersede(d.Ref, o, len(s.Rules))...)
			s.Rules = append(s.Rules, Object[*api.NodeFeatureRule]{Obj: obj, Origin: o, Rejected: rejected, Undecoded: undecoded(d.Errs)})
		case *api.NodeFeatureGroup:
			ds = append(ds, s.supersede(d.Ref, o, len(s.Groups))...)
			s.Groups = append(s.Groups, Object[*api.NodeFeatureGroup]{Obj: obj, Origin: o, Rejected: rejected, Undecoded: undecoded(d.Errs)})
		}
		ds = append(ds, fieldErrors(d, o, !s.StrictFieldValidation)...)
	}
	return ds
}

// supersede records the object about to be appended at index i of its
// kind's slice and, when an earlier object has the same kind, namespace
// and name, marks that one Superseded: applied in input order, the cluster
// keeps the last. The duplicate is an error naming both places.
func (s *Set) supersede(ref diag.ObjectRef, o Origin, i int) diag.List {
	key := ref.Key()
	if s.seen == nil {
		s.seen = map[diag.ObjectRef]int{}
	}
	prev, dup := s.seen[key]
	s.seen[key] = i
	if !dup {
		return nil
	}
	var first Origin
	switch ref.Kind {
	case api.KindNodeFeature:
		s.Features[prev].Superseded, first = true, s.Features[prev].Origin
	case api.KindNodeFeatureRule:
		s.Rules[prev].Superseded, first = true, s.Rules[prev].Origin
	case api.KindNodeFeatureGroup:
		s.Groups[prev].Superseded, first = true, s.Groups[prev].Origin
	case "Node":
		s.Nodes[prev].Superseded, first = true, s.Nodes[prev].Origin
	}
	return diag.List{{Severity: diag.Error, Check: "duplicate-object", Object: ref, Field: "metadata.name",
		Pos: o.Position("metadata.name", false),
		Message: fmt.Sprintf("%s is defined twice, at %s and at %s: applied in that order the cluster keeps only the last, so nfd-fn uses this one",
			ref.Key(), first.Where(), o.Where())}}
}

// openShiftAlias reports a NodeFeatureRule in the OpenShift NFD
// operator's API group, which vendors' OpenShift instructions use with
// the same spec.
func (d *Decoded) openShiftAlias() bool {
	return d.Ref.APIVersion == OpenShiftAPIVersion && d.Ref.Kind == api.KindNodeFeatureRule
}

// OpenShiftAPIVersion is the OpenShift NFD operator's API version, an
// alias of nfd.k8s-sigs.io/v1alpha1 for NodeFeatureRules.
const OpenShiftAPIVersion = "nfd.openshift.io/v1alpha1"

func aliasNote(d *Decoded, o Origin) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Info, Check: "api-version-alias", Object: d.Ref, Field: "apiVersion",
		Pos: o.Position("apiVersion", true),
		Message: fmt.Sprintf("%s is the OpenShift NFD operator's group: read as %s %s, the same spec (upstream nfd-master does not serve it)",
			OpenShiftAPIVersion, api.APIVersion, api.KindNodeFeatureRule)}
}

// undecoded lists the paths of the values errs say did not decode, and
// of the fields misspelt keys meant.
func undecoded(errs []*ys.FieldError) []string {
	var paths []string
	for _, e := range errs {
		paths = append(paths, e.Path)
		if e.Meant != "" {
			paths = append(paths, e.Meant)
		}
	}
	return paths
}

// Undecodes reports whether a finding at field judges a value decoding
// left empty (one of paths, or a list or mapping holding one, whose
// element is missing) or inside one.
func Undecodes(paths []string, field string) bool {
	for _, p := range paths {
		if field == p || strings.HasPrefix(field, p+".") || strings.HasPrefix(field, p+"[") ||
			strings.HasPrefix(p, field+"[") {
			return true
		}
	}
	return false
}

// fieldErrors turns strict decoding errors into diagnostics. An unknown
// field says which fieldValidation it assumes: with prune (Warn, the
// strictFieldValidation setting off) it is a warning, the field pruned
// and the object used; else the object is refused (Strict).
func fieldErrors(d *Decoded, o Origin, prune bool) diag.List {
	out := make(diag.List, 0, len(d.Errs))
	for _, e := range d.Errs {
		check, severity := "schema", diag.Error
		msg := fmt.Sprintf("%s; the API server would reject this %s, so nfd-fn ignores it", e.Msg, d.Ref.Kind)
		switch {
		case isUnknownField(e) && prune:
			check, severity = "unknown-field", diag.Warning
			msg = fmt.Sprintf("%s; %s", e.Msg, UnknownFieldPruned(e.Path))
		case isUnknownField(e):
			check = "unknown-field"
			msg = fmt.Sprintf("%s; %s, so nfd-fn ignores it", e.Msg, UnknownFieldRefused(d.Ref.Kind, e.Path))
		case isNameError(e):
			check = "object-name"
		case e.Got != "" && isNFD(d.Ref):
			msg = fmt.Sprintf("%s; %s, so nfd-fn ignores it", typeRefusal(d.Ref, e, prune), e.Msg)
		}
		if e.Stored || strings.HasSuffix(e.Msg, lenientNote) {
			msg = e.Msg
		}
		pos := diag.Position{File: o.File, Index: o.Index, Line: e.Line, Column: e.Column}
		out = append(out, diag.Diagnostic{Severity: severity, Check: check, Object: d.Ref, Field: e.Path, Pos: pos, Message: msg})
	}
	return out
}

func isUnknownField(e *ys.FieldError) bool { return strings.HasPrefix(e.Msg, "unknown field") }

func unknownNFD(d *Decoded, o Origin) diag.Diagnostic {
	group := groupOf(d.Ref.APIVersion)
	apiVersion := func(msg string) diag.Diagnostic {
		return diag.Diagnostic{Severity: diag.Error, Check: "api-version", Object: d.Ref, Field: "apiVersion",
			Pos: o.Position("apiVersion", true), Message: msg}
	}
	switch {
	case group != api.Group && (group != "nfd.openshift.io" || !slices.Contains(nfdKinds, d.Ref.Kind)):
		want := api.APIVersion
		what := "object"
		if d.Ref.Kind != "" {
			what = d.Ref.Kind
		}
		msg := fmt.Sprintf("API group %q is not NFD's, so nfd-master never reads this %s: did you mean %q?", group, what, want)
		if best := suggest.Closest(d.Ref.Kind, nfdKinds); best != "" && !slices.Contains(nfdKinds, d.Ref.Kind) {
			msg += fmt.Sprintf(" (and kind %q?)", best)
		}
		ds := apiVersion(msg)
		ds.Suggestion = want
		return ds
	case d.Ref.APIVersion != api.APIVersion:
		return apiVersion(fmt.Sprintf("unknown NFD API version %q: nfd-master serves %s", d.Ref.APIVersion, api.APIVersion))
	}
	ds := diag.Diagnostic{Severity: diag.Error, Check: "unknown-kind", Object: d.Ref, Field: "kind", Pos: o.Position("kind", true),
		Message: fmt.Sprintf("unknown NFD kind %q: the API server has no such kind (NFD's are %s)", d.Ref.Kind, strings.Join(nfdKinds, ", "))}
	if best := suggest.Closest(d.Ref.Kind, nfdKinds); best != "" {
		ds.Message = fmt.Sprintf("unknown NFD kind %q: did you mean %q? The API server has no such kind", d.Ref.Kind, best)
		ds.Suggestion = best
	}
	return ds
}

// notObject is the error for a document or item that is not a mapping (a
// scalar, a sequence): it cannot be an object, and is never silently
// skipped.
func notObject(o Origin) diag.Diagnostic {
	msg := "document is not a YAML mapping (an object with apiVersion and kind)"
	if o.File == "" && o.Item >= 0 {
		msg = fmt.Sprintf("items[%d]: %s", o.Item, msg)
	}
	return diag.Diagnostic{Severity: diag.Error, Check: "yaml", Pos: o.Position("", false), Message: msg}
}

// FileDocumentNote is the diagnostic for a document of a file that is not
// an object: a list or a scalar (an Ansible playbook, a docs list that
// mentions NFD), or a mapping under a tag of its own, with no apiVersion
// or kind, is skipped with a note; one that has an apiVersion or kind, or
// is an item of a v1 List (inList), was meant to be an object, and is an
// error (notObject). n is the document.
func FileDocumentNote(n *yaml.Node, o Origin, inList bool) diag.Diagnostic {
	if inList || (n.Kind == yaml.MappingNode && (ys.Value(n, "apiVersion") != nil || ys.Value(n, "kind") != nil)) {
		return notObject(o)
	}
	return diag.Diagnostic{Severity: diag.Info, Check: "other-kind", Pos: o.Position("", false),
		Message: fmt.Sprintf("document is %s, not an object (a mapping with apiVersion and kind): skipped", ys.Describe(n))}
}

// OtherNote is the info diagnostic for a document nfd-fn skips, for
// callers that read files (where skipping deserves a word).
func OtherNote(d *Decoded, o Origin) diag.Diagnostic {
	if d.Class == NotObject {
		return notObject(o)
	}
	what := d.Ref.APIVersion + " " + d.Ref.Kind
	switch {
	case d.Ref.APIVersion == "" && d.Ref.Kind == "":
		what = "document without apiVersion and kind"
	case d.Ref.Kind == "":
		what = "document with apiVersion " + d.Ref.APIVersion + " and no kind" // a Helm Chart.yaml, say
	case d.Ref.APIVersion == "":
		what = d.Ref.Kind + " without apiVersion"
	}
	if d.Ref.Name != "" {
		what += fmt.Sprintf(" %q", d.Ref.Name)
	}
	return diag.Diagnostic{Severity: diag.Info, Check: "other-kind", Object: d.Ref, Field: "kind", Pos: o.Position("kind", true),
		Message: what + " is not an NFD kind: skipped"}
}
