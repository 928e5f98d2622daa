package discover

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/suggest"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// shape says which keys a YAML mapping of nfd-worker's configuration may
// hold. nfd-worker decodes its configuration and custom rules through
// encoding/json without rejecting unknown fields (the custom.d
// UnmarshalStrict stops at the custom rules' own UnmarshalJSON), so a
// misspelt key silently changes a rule's meaning. checkFields reports those
// keys; it never changes what is decoded. A nil shape accepts anything.
type shape struct {
	// fields are the known keys of a struct. Keys match case-insensitively,
	// as encoding/json matches struct fields.
	fields map[string]*shape
	// sources marks the sources map of the worker configuration: its keys
	// are Go map keys, matched exactly, and only configurable sources exist.
	sources bool
	// items is the shape of each element of a list.
	items *shape
	// values is the shape of each value of a mapping with free keys.
	values *shape
	// pick chooses the shape from the node itself (legacy or new custom
	// rule, list or map form of an expression set).
	pick func(n *yaml.Node) *shape
	// hint explains what an unknown key of this mapping means, or "".
	hint func(key string) string
	// scalar says how nfd-worker turns a scalar here into a string; an
	// unquoted scalar whose string is not its text is reported.
	scalar scalarKind
	// convKeys marks a mapping with free keys (values set) whose keys
	// become strings as YAML 1.1 resolves them; such keys are reported too.
	convKeys bool
}

// fieldProblem is an unknown key, or a scalar nfd-worker reads otherwise
// than it is written (reread), at a field path.
type fieldProblem struct {
	path         string
	line, column int
	msg          string
	reread       bool
	// who is the reader, "nfd-worker v0.19".
	who string
}

// String formats the problem as "line N: path: message".
func (p fieldProblem) String() string {
	return fmt.Sprintf("line %d: %s: %s", p.line, p.path, p.msg)
}

// brief is the problem without the file's contents: only its line and
// its kind.
func (p fieldProblem) brief() string {
	if p.reread {
		return fmt.Sprintf("line %d: an unquoted value %s reads otherwise than written (YAML 1.1): quote it", p.line, p.who)
	}
	return fmt.Sprintf("line %d: a field %s ignores", p.line, p.who)
}

// checkFields walks n and returns the keys s does not know, in document
// order, as problems of the reader who ("nfd-worker v0.19").
func checkFields(n *yaml.Node, s *shape, path, who string) []fieldProblem {
	w := &fieldWalker{who: who}
	w.walk(n, s, path)
	return w.out
}

// fieldWalker collects the problems of one document for the reader who.
type fieldWalker struct {
	who string
	out []fieldProblem
}

// add records a problem.
func (w *fieldWalker) add(p fieldProblem) {
	p.who = w.who
	w.out = append(w.out, p)
}

// walk checks n against s at path.
func (w *fieldWalker) walk(n *yaml.Node, s *shape, path string) {
	for n != nil && (n.Kind == yaml.AliasNode || n.Kind == yaml.DocumentNode) {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		} else if len(n.Content) == 1 {
			n = n.Content[0]
		} else {
			return
		}
	}
	if n == nil || s == nil {
		return
	}
	if s.pick != nil {
		s = s.pick(n)
		if s == nil {
			return
		}
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if p, ok := rereadProblem(n, s.scalar, path); ok {
			w.add(p)
		}
	case yaml.MappingNode:
		w.mapping(n, s, path)
	case yaml.SequenceNode:
		if s.items != nil {
			for i, c := range n.Content {
				w.walk(c, s.items, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
}

// mapping checks the keys of one mapping.
func (w *fieldWalker) mapping(n *yaml.Node, s *shape, path string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.Tag == "!!merge":
			// A merge key (<<: *anchor, or a list of them) brings the keys
			// of other mappings into this one, as in nfd-worker's YAML
			// reader.
			for _, m := range mergedMappings(v) {
				w.mapping(m, s, path)
			}
		case s.values != nil:
			if s.convKeys {
				if p, ok := rereadProblem(k, scalarKey, path); ok {
					w.add(p)
				}
			}
			w.walk(v, s.values, yamlstrict.JoinKey(path, k.Value))
		case s.sources:
			sub := yamlstrict.JoinKey(path, k.Value)
			if child, ok := s.fields[k.Value]; ok {
				w.walk(v, child, sub)
			} else {
				w.add(fieldProblem{path: sub, line: k.Line, column: k.Column, msg: unknownSourceMsg(w.who, k.Value, s.fields)})
			}
		case s.fields != nil:
			sub := yamlstrict.JoinKey(path, k.Value)
			if child, ok := lookupField(s.fields, k.Value); ok {
				w.walk(v, child, sub)
			} else {
				w.add(fieldProblem{path: sub, line: k.Line, column: k.Column, msg: unknownFieldMsg(w.who, k.Value, s)})
			}
		}
	}
}

// mergedMappings returns the mappings a merge key's value names: one
// mapping, or a list of them, through aliases.
func mergedMappings(v *yaml.Node) []*yaml.Node {
	if v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	switch {
	case v == nil:
		return nil
	case v.Kind == yaml.MappingNode:
		return []*yaml.Node{v}
	case v.Kind == yaml.SequenceNode:
		var out []*yaml.Node
		for _, c := range v.Content {
			out = append(out, mergedMappings(c)...)
		}
		return out
	}
	return nil
}

// lookupField finds key among fields the way encoding/json does: an exact
// match first, then a case-insensitive one.
func lookupField(fields map[string]*shape, key string) (*shape, bool) {
	if s, ok := fields[key]; ok {
		return s, true
	}
	for name, s := range fields {
		if strings.EqualFold(name, key) {
			return s, true
		}
	}
	return nil, false
}

// unknownFieldMsg says a key is ignored, and why it matters or which known
// key is close.
func unknownFieldMsg(who, key string, s *shape) string {
	msg := fmt.Sprintf("unknown field %q: %s ignores it", key, who)
	if s.hint != nil {
		if h := s.hint(key); h != "" {
			return msg + "; " + h
		}
	}
	if best := suggest.Closest(key, sortedKeys(s.fields)); best != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", best)
	}
	return msg
}

// unknownSourceMsg says a sources.<name> section is ignored.
func unknownSourceMsg(who, name string, fields map[string]*shape) string {
	for known := range fields {
		if strings.EqualFold(known, name) {
			return fmt.Sprintf("%s has no source %q and ignores these settings: source names are case-sensitive, write %q", who, name, known)
		}
	}
	return fmt.Sprintf("%s has no settings for a source %q and ignores them (configurable sources: %s)",
		who, name, strings.Join(sortedKeys(fields), ", "))
}

// fieldsOf builds a struct shape.
func fieldsOf(fields map[string]*shape) *shape { return &shape{fields: fields} }

// listOf builds a list shape.
func listOf(items *shape) *shape { return &shape{items: items} }

// workerConfigShape is the configuration file of an nfd-worker release.
func workerConfigShape(rel release) *shape {
	str, strs, strMap := stringShapes()
	device := fieldsOf(map[string]*shape{"deviceClassWhitelist": strs, "deviceLabelFields": strs})
	core := fieldsOf(map[string]*shape{
		"klog": strMap, "labelWhiteList": nil, "noPublish": nil, "noOwnerRefs": nil, "ownerRefs": nil,
		"featureSources": strs, "sources": strs, "labelSources": strs, "noPublishFeatures": strs, "sleepInterval": nil,
	})
	if !rel.publishControls {
		delete(core.fields, "ownerRefs")
		delete(core.fields, "noPublishFeatures")
		core.hint = func(key string) string {
			if strings.EqualFold(key, "ownerRefs") || strings.EqualFold(key, "noPublishFeatures") {
				return "it exists from nfd-worker v0.19"
			}
			return ""
		}
	}
	top := fieldsOf(map[string]*shape{
		"core": core,
		"sources": {sources: true, fields: map[string]*shape{
			"cpu":    fieldsOf(map[string]*shape{"cpuid": fieldsOf(map[string]*shape{"attributeBlacklist": strs, "attributeWhitelist": strs})}),
			"kernel": fieldsOf(map[string]*shape{"kconfigFile": str, "configOpts": strs}),
			"pci":    device,
			"usb":    device,
			"custom": customRulesShape(),
			"local":  fieldsOf(map[string]*shape{}),
			"fake": fieldsOf(map[string]*shape{"labels": strMap, "flagFeatures": strs,
				"attributeFeatures": strMap, "instanceFeatures": listOf(strMap)}),
		}},
	})
	top.hint = func(key string) string {
		if _, ok := sourceKinds()[strings.ToLower(key)]; ok {
			return "source settings go under sources." + strings.ToLower(key)
		}
		return ""
	}
	return top
}

// stringShapes returns the shapes of a string, a list of strings and a
// mapping of strings to strings, as sigs.k8s.io/yaml fills Go strings.
func stringShapes() (str, strs, strMap *shape) {
	str = &shape{scalar: scalarString}
	return str, listOf(str), &shape{values: str, convKeys: true}
}

// customRulesShape is a list of custom rules (sources.custom or a custom.d
// file).
func customRulesShape() *shape {
	return listOf(customRuleShape())
}

// customRuleShape is one rule of the worker's custom-rule API.
func customRuleShape() *shape {
	term := termShape()
	str, _, strMap := stringShapes()
	rule := fieldsOf(map[string]*shape{
		"name": str, "labels": strMap, "labelsTemplate": str, "vars": strMap, "varsTemplate": str,
		"matchFeatures": listOf(term),
		"matchAny":      listOf(fieldsOf(map[string]*shape{"matchFeatures": listOf(term)})),
	})
	rule.hint = func(key string) string {
		switch strings.ToLower(key) {
		case "annotations", "taints", "extendedresources":
			return "only NodeFeatureRule objects have it, worker rules make labels and vars"
		case "matchon", "value":
			return "legacy matchOn rules were removed in NFD v0.15, so this rule has no matcher and makes no label from its name"
		}
		if best := suggest.Closest(key, []string{"matchFeatures", "matchAny"}); best != "" {
			return fmt.Sprintf("did you mean %q? Without matchFeatures and matchAny the rule matches every node, so nfd-worker sets its labels on all of them", best)
		}
		return ""
	}
	return rule
}

// termShape is a matcher term: feature, matchExpressions (a map of
// expressions or a list of names) and matchName. An expression's scalar
// form and its value are match values (numbers written in full).
func termShape() *shape {
	value := &shape{scalar: scalarMatchValue}
	expr := &shape{pick: func(n *yaml.Node) *shape {
		switch n.Kind {
		case yaml.MappingNode:
			e := fieldsOf(map[string]*shape{"op": nil, "value": value})
			e.hint = func(key string) string {
				if strings.EqualFold(key, "type") {
					return "the custom source has no type field: it compares the values of Gt, Lt and GtLt as integers"
				}
				return ""
			}
			return e
		case yaml.ScalarNode:
			return value
		}
		return nil
	}}
	exprSet := &shape{pick: func(n *yaml.Node) *shape {
		if n.Kind == yaml.MappingNode {
			return &shape{values: expr, convKeys: true}
		}
		return nil
	}}
	str, _, _ := stringShapes()
	term := fieldsOf(map[string]*shape{"feature": str, "matchExpressions": exprSet, "matchName": expr})
	term.hint = func(key string) string {
		if strings.Contains(key, ".") {
			return "there is no short form for a whole term (write feature: " + key + " and matchExpressions:), so this term has no feature and never matches"
		}
		return ""
	}
	return term
}
