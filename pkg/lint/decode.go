package lint

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/nfdyaml"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Decode sorts documents into the Input by kind and decodes the NFD kinds
// strictly. Decoding problems are findings; documents of other kinds are
// noted (severity info) and skipped. A document that does not decode
// cleanly is still checked as far as it decoded, marked Rejected.
func Decode(docs []*Document, in *Input) []Finding {
	var findings []Finding
	for _, doc := range docs {
		findings = append(findings, decodeOne(doc, in)...)
	}
	return findings
}

func decodeOne(doc *Document, in *Input) []Finding {
	n := doc.Node
	apiVersion, kind, name, ns := scalar(n, "apiVersion"), scalar(n, "kind"), "", ""
	if md := value(n, "metadata"); md != nil {
		name, ns = scalar(md, "name"), scalar(md, "namespace")
	}
	ref := engine.ObjectRef{Kind: kind, Namespace: ns, Name: name}
	note := func(sev engine.Severity, check, field, msg string) []Finding {
		f := Finding{Severity: sev, Check: check, Doc: doc, Object: ref, Field: field, Message: msg}
		locate(&f, true)
		return []Finding{f}
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return note(engine.SeverityError, "yaml", "", "document is not a YAML mapping (an object with apiVersion and kind)")
	}
	group, _, _ := strings.Cut(apiVersion, "/")
	if group != api.Group {
		return note(engine.SeverityInfo, "other-kind", "kind", fmt.Sprintf("%s %q is not an NFD kind: skipped", describeKind(apiVersion, kind), name))
	}
	if apiVersion != api.APIVersion {
		return note(engine.SeverityError, "api-version", "apiVersion", fmt.Sprintf("unknown NFD API version %q: nfd-master serves %s", apiVersion, api.APIVersion))
	}
	var errs []*yamlstrict.FieldError
	switch kind {
	case api.KindNodeFeatureRule:
		var o *api.NodeFeatureRule
		o, errs = nfdyaml.DecodeNodeFeatureRule(n)
		in.Rules = append(in.Rules, Object[*api.NodeFeatureRule]{doc, o, len(errs) > 0})
	case api.KindNodeFeatureGroup:
		var o *api.NodeFeatureGroup
		o, errs = nfdyaml.DecodeNodeFeatureGroup(n)
		in.Groups = append(in.Groups, Object[*api.NodeFeatureGroup]{doc, o, len(errs) > 0})
	case api.KindNodeFeature:
		var o *api.NodeFeature
		o, errs = nfdyaml.DecodeNodeFeature(n)
		in.Features = append(in.Features, Object[*api.NodeFeature]{doc, o, len(errs) > 0})
	default:
		return note(engine.SeverityWarning, "unknown-kind", "kind", fmt.Sprintf("unknown NFD kind %q: nfd-fn checks NodeFeatureRule, NodeFeatureGroup and NodeFeature", kind))
	}
	return FieldErrors(doc, ref, errs)
}

// FieldErrors turns strict decoding errors into findings.
func FieldErrors(doc *Document, ref engine.ObjectRef, errs []*yamlstrict.FieldError) []Finding {
	out := make([]Finding, 0, len(errs))
	for _, e := range errs {
		check := "schema"
		if strings.HasPrefix(e.Msg, "unknown field") {
			check = "unknown-field"
		}
		out = append(out, Finding{Severity: engine.SeverityError, Check: check, Doc: doc, Object: ref, Field: e.Path,
			Line: e.Line, Column: e.Column, Message: e.Msg + " (the API server rejects this " + ref.Kind + ")"})
	}
	return out
}

func describeKind(apiVersion, kind string) string {
	if apiVersion == "" && kind == "" {
		return "document without apiVersion and kind"
	}
	return apiVersion + " " + kind
}

func value(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func scalar(n *yaml.Node, key string) string {
	if v := value(n, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}
