// Package lint checks NodeFeatureRule, NodeFeatureGroup and NodeFeature
// objects before they reach a cluster. Static checks need only the objects;
// fleet checks also take what the rules did on each node. Every finding
// names its document, object and field path, with the line and column of
// the offending YAML node when the document came from a file.
//
// The rule engine's own compile diagnostics are included, so a caller gets
// every problem nfd-master would hit and those it would silently tolerate.
package lint

import (
	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/render"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Document is one YAML document: the file it came from, its index among
// the file's documents and its root mapping node.
type Document struct {
	File  string
	Index int
	Node  *yaml.Node
}

// Object is a decoded object with the document it came from.
type Object[T any] struct {
	Doc *Document
	Obj T
	// Rejected marks an object that did not decode cleanly: the API server
	// would refuse it, so it is checked but never rendered.
	Rejected bool
}

// Input is what the checks look at.
type Input struct {
	Rules    []Object[*api.NodeFeatureRule]
	Groups   []Object[*api.NodeFeatureGroup]
	Features []Object[*api.NodeFeature]
	// Options are nfd-master's settings, for judging rule outputs.
	Options render.Options
	// Rendering says the caller compiles and renders the rules itself and
	// reports the engine's compile diagnostics and the per-node output
	// problems: Static then leaves those two out.
	Rendering bool
}

// Finding is one problem.
type Finding struct {
	Severity engine.Severity
	// Check names the check that found it, e.g. "unknown-field".
	Check  string
	Doc    *Document
	Object engine.ObjectRef
	// Field is the path inside the object, e.g. spec.rules[0].labels.
	Field string
	// Line and Column locate the offending node in Doc's file (0 unknown).
	Line, Column int
	Message      string
	// Suggestion, when set, is a replacement value for Field.
	Suggestion string
	// Nodes lists the nodes a fleet finding concerns.
	Nodes []string
}

// Static runs every check that needs no fleet.
func Static(in *Input) []Finding {
	c := &checker{in: in}
	c.duplicateObjects()
	if !in.Rendering {
		c.compile()
	}
	c.catalogue()
	if !in.Rendering {
		c.outputs()
	}
	c.backrefs()
	return c.findings
}

type checker struct {
	in       *Input
	findings []Finding
	// known caches the feature names of the input's NodeFeatures.
	known map[string]bool
}

// add records a finding, locating the field's node in the document. key
// selects the key node of a mapping entry (for unknown or duplicate names).
func (c *checker) add(doc *Document, ref engine.ObjectRef, sev engine.Severity, check, field string, key bool, msg string) *Finding {
	f := Finding{Severity: sev, Check: check, Doc: doc, Object: ref, Field: field, Message: msg}
	locate(&f, key)
	c.findings = append(c.findings, f)
	return &c.findings[len(c.findings)-1]
}

// locate fills Line and Column from the document node.
func locate(f *Finding, key bool) {
	if f.Doc == nil || f.Doc.Node == nil || f.Line != 0 {
		return
	}
	if n := yamlstrict.Locate(f.Doc.Node, f.Field, key); n != nil {
		f.Line, f.Column = n.Line, n.Column
	}
}

func ruleRef(o *api.NodeFeatureRule) engine.ObjectRef {
	return engine.ObjectRef{Kind: api.KindNodeFeatureRule, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
}

func groupRef(o *api.NodeFeatureGroup) engine.ObjectRef {
	return engine.ObjectRef{Kind: api.KindNodeFeatureGroup, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
}

func featureRef(o *api.NodeFeature) engine.ObjectRef {
	return engine.ObjectRef{Kind: api.KindNodeFeature, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
}
