package lint

import (
	"fmt"
	"slices"
	"strings"
	"text/template/parse"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// The data a labelsTemplate or varsTemplate runs on has one shape on every
// node: domains (.pci), each a map of features (.pci.device), each a list
// of elements, each a map of strings: Name (flags), Name and Value
// (attributes), or the instance's attributes (class, vendor, ...). A read
// that does not fit that shape fails wherever it runs (nfd-master runs
// templates with missingkey=error), whatever the node's features: it is
// found from the template and the catalogue alone.

// shapeKind is what a template value is, as far as the walk knows.
type shapeKind int

const (
	shapeUnknown shapeKind = iota // a function's result, an unknown variable
	shapeRoot                     // the data: domains
	shapeDomain                   // a domain: its features
	shapeFeature                  // a feature: a list of elements
	shapeElement                  // an element: a map of strings
	shapeString                   // an element's value
)

// shape is a template value: its kind and, for a domain, feature or
// element, the name it was reached by ("" when ranged over).
type shape struct {
	kind shapeKind
	name string // domain, or domain.feature
}

// shapeProblem is a read that can never succeed, with whether every run
// of the template reaches it.
type shapeProblem struct {
	msg         string
	conditional bool
}

// shapeWalker walks a template tracking dot's and the variables' shapes.
type shapeWalker struct {
	problems []shapeProblem
	seen     map[string]bool
}

// shapeProblems returns the reads of a template (text, which parses:
// others are the engine's to report) that fail on every node.
func shapeProblems(text string) []shapeProblem {
	tree := parse.New("t")
	tree.Mode = parse.SkipFuncCheck
	if _, err := tree.Parse(text, "{{", "}}", map[string]*parse.Tree{}); err != nil || tree.Root == nil {
		return nil
	}
	w := &shapeWalker{seen: map[string]bool{}}
	w.list(tree.Root, shapeScope{dot: shape{kind: shapeRoot}, vars: map[string]shape{"$": {kind: shapeRoot}}})
	return w.problems
}

// shapeScope is dot and the variables in scope at a point of the walk.
type shapeScope struct {
	dot         shape
	vars        map[string]shape
	conditional bool
}

// with returns a scope for a nested list: its own copy of the variables.
func (s shapeScope) with(dot shape, conditional bool) shapeScope {
	vars := make(map[string]shape, len(s.vars))
	for k, v := range s.vars {
		vars[k] = v
	}
	return shapeScope{dot: dot, vars: vars, conditional: s.conditional || conditional}
}

func (w *shapeWalker) list(l *parse.ListNode, s shapeScope) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		switch n := n.(type) {
		case *parse.ActionNode:
			w.pipe(n.Pipe, s)
		case *parse.IfNode:
			w.pipe(n.Pipe, s)
			w.list(n.List, s.with(s.dot, true))
			w.list(n.ElseList, s.with(s.dot, true))
		case *parse.WithNode:
			v := w.pipe(n.Pipe, s)
			w.list(n.List, s.with(v, true))
			w.list(n.ElseList, s.with(s.dot, true))
		case *parse.RangeNode:
			w.rangeNode(n, s)
		}
	}
}

// rangeNode walks a range: over a feature, dot is each element. A rule
// that matched through a feature has at least one of its elements, so the
// body runs wherever the rule matches.
func (w *shapeWalker) rangeNode(n *parse.RangeNode, s shapeScope) {
	over := w.value(n.Pipe, s)
	elem := shape{}
	switch over.kind {
	case shapeRoot:
		elem = shape{kind: shapeDomain}
	case shapeDomain:
		elem = shape{kind: shapeFeature, name: over.name + "."}
	case shapeFeature:
		elem = shape{kind: shapeElement, name: over.name}
	case shapeElement:
		elem = shape{kind: shapeString}
	}
	body := s.with(elem, over.kind != shapeFeature)
	if decl := n.Pipe.Decl; len(decl) > 0 {
		body.vars[decl[len(decl)-1].Ident[0]] = elem
	}
	w.list(n.List, body)
	w.list(n.ElseList, s.with(s.dot, true))
}

// pipe walks a pipeline and returns its value's shape, recording the
// variable it declares.
func (w *shapeWalker) pipe(p *parse.PipeNode, s shapeScope) shape {
	v := w.value(p, s)
	if p != nil && len(p.Decl) == 1 {
		s.vars[p.Decl[0].Ident[0]] = v
	}
	return v
}

// value is the shape of a pipeline's result: its last command's, when
// that is a plain read (a field, a variable, dot); unknown for a call.
func (w *shapeWalker) value(p *parse.PipeNode, s shapeScope) shape {
	if p == nil {
		return shape{}
	}
	var last shape
	for _, cmd := range p.Cmds {
		last = shape{}
		for _, arg := range cmd.Args {
			v := w.arg(arg, s)
			if len(cmd.Args) == 1 {
				last = v
			}
		}
	}
	return last
}

func (w *shapeWalker) arg(n parse.Node, s shapeScope) shape {
	switch n := n.(type) {
	case *parse.DotNode:
		return s.dot
	case *parse.FieldNode:
		return w.fields(s.dot, n.Ident, n.String(), s)
	case *parse.VariableNode:
		v, ok := s.vars[n.Ident[0]]
		if !ok {
			return shape{}
		}
		return w.fields(v, n.Ident[1:], n.String(), s)
	case *parse.ChainNode:
		return w.fields(w.arg(n.Node, s), n.Field, n.String(), s)
	case *parse.PipeNode:
		return w.value(n, s)
	}
	return shape{}
}

// fields follows the field reads idents from v, recording the first that
// cannot succeed (written is the read as the template writes it).
func (w *shapeWalker) fields(v shape, idents []string, written string, s shapeScope) shape {
	for _, id := range idents {
		next, problem := v.field(id)
		if problem != "" {
			w.report(fmt.Sprintf("template reads %s: %s", written, problem), s.conditional)
			return shape{}
		}
		v = next
	}
	return v
}

func (w *shapeWalker) report(msg string, conditional bool) {
	if w.seen[msg] {
		return
	}
	w.seen[msg] = true
	w.problems = append(w.problems, shapeProblem{msg: msg, conditional: conditional})
}

// field is the shape of v.id, or why the read fails on every node.
func (v shape) field(id string) (shape, string) {
	switch v.kind {
	case shapeRoot:
		return shape{kind: shapeDomain, name: id}, ""
	case shapeDomain:
		return shape{kind: shapeFeature, name: v.name + "." + id}, ""
	case shapeFeature:
		return shape{}, fmt.Sprintf("%s is a list of elements in templates, which has no field %s, so nfd-master fails the rule wherever it matches: range over it (%s)", v.describe(), id, v.rangeHint(id))
	case shapeElement:
		return v.elementField(id)
	case shapeString:
		return shape{}, fmt.Sprintf("an element's value is a string, which has no field %s, so nfd-master fails the rule wherever it matches", id)
	}
	return shape{}, ""
}

func (v shape) describe() string {
	if strings.HasSuffix(v.name, ".") || v.name == "" {
		return "a feature"
	}
	return "feature " + v.name
}

// rangeHint shows how to read element id of the feature v.
func (v shape) rangeHint(id string) string {
	path := "." + v.name
	if v.describe() == "a feature" {
		path = "the feature"
	}
	entry, known := catalogue[v.name]
	if known && entry.has(instanceFeature) {
		return fmt.Sprintf("{{ range %s }}{{ .%s }}{{ end }}", path, id)
	}
	return fmt.Sprintf("{{ range %s }}{{ if eq .Name %q }}{{ .Value }}{{ end }}{{ end }}", path, id)
}

// elementField is the shape of element v's field id: Name (and Value) of
// a flag or attribute element, an attribute of an instance element; a
// feature nfd-fn does not know (a third party's) may have any.
func (v shape) elementField(id string) (shape, string) {
	entry, known := catalogue[v.name]
	if !known {
		return shape{kind: shapeString}, ""
	}
	var keys []string
	if entry.has(flagFeature) || entry.has(attributeFeature) {
		keys = append(keys, "Name")
	}
	if entry.has(attributeFeature) {
		keys = append(keys, "Value")
	}
	if entry.has(instanceFeature) {
		if entry.elements == nil {
			return shape{kind: shapeString}, ""
		}
		keys = append(keys, entry.elements...)
	}
	if slices.Contains(keys, id) {
		return shape{kind: shapeString}, ""
	}
	msg := fmt.Sprintf("an element of %s has no key %s (its keys are %s), so nfd-master fails the rule wherever it matches (templates run with missingkey=error)",
		v.name, id, strings.Join(keys, ", "))
	switch {
	case !entry.has(instanceFeature) && entry.hasElement(id) && entry.elements != nil:
		msg += fmt.Sprintf(`: %s is an element's Name, read its Value with {{ if eq .Name %q }}{{ .Value }}{{ end }}`, id, id)
	default:
		if best := suggest.Closest(id, keys); best != "" {
			msg += fmt.Sprintf(": did you mean .%s?", best)
		}
	}
	return shape{}, msg
}

// templateShapes reports the template reads that fail on every node
// (shapeProblems): an error, or a warning when only a conditional part
// of the template makes the read. It returns the template fields it
// reported, which the run on features made from the matcher
// (templateLabels) then leaves alone.
func (c *checker) templateShapes() map[templateAt]bool {
	reported := map[templateAt]bool{}
	for _, r := range c.allRules() {
		for _, t := range []struct{ field, text string }{{"labelsTemplate", r.rule.LabelsTemplate}, {"varsTemplate", r.rule.VarsTemplate}} {
			field := r.field + "." + t.field
			for _, p := range shapeProblems(t.text) {
				sev := diag.Error
				if p.conditional {
					sev = diag.Warning
				}
				c.add(r.doc, r.ref, sev, "template", field, false, p.msg)
				reported[templateAt{r.ref.Key(), field}] = true
			}
		}
	}
	return reported
}

// templateAt names a template field of an object.
type templateAt struct {
	ref   diag.ObjectRef
	field string
}
