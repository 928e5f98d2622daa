package lint

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// where describes a document position for messages about a second one.
func where(d *Document) string {
	if d == nil || d.File == "" {
		return "elsewhere in the input"
	}
	if d.Node != nil && d.Node.Line > 0 {
		return fmt.Sprintf("%s:%d", d.File, d.Node.Line)
	}
	return d.File
}

// duplicateObjects reports objects of one kind with the same namespace and
// name (the API server keeps only one), and rule names used twice.
func (c *checker) duplicateObjects() {
	seen := map[engine.ObjectRef]*Document{}
	check := func(ref engine.ObjectRef, doc *Document) {
		if prev, dup := seen[ref]; dup {
			c.add(doc, ref, engine.SeverityError, "duplicate-object", "metadata.name", false,
				fmt.Sprintf("duplicate %s (also at %s): the API server keeps only one of them", ref, where(prev)))
			return
		}
		seen[ref] = doc
	}
	for _, o := range c.in.Rules {
		check(ruleRef(o.Obj), o.Doc)
	}
	for _, o := range c.in.Groups {
		check(groupRef(o.Obj), o.Doc)
	}
	for _, o := range c.in.Features {
		check(featureRef(o.Obj), o.Doc)
	}
	c.duplicateRuleNames()
}

type ruleSite struct {
	ref   engine.ObjectRef
	index int
}

func (c *checker) duplicateRuleNames() {
	seen := map[string]ruleSite{}
	for _, o := range c.in.Rules {
		ref := ruleRef(o.Obj)
		for i, r := range o.Obj.Spec.Rules {
			if r.Name == "" {
				continue
			}
			prev, dup := seen[r.Name]
			if !dup {
				seen[r.Name] = ruleSite{ref, i}
				continue
			}
			sev := engine.SeverityWarning
			msg := fmt.Sprintf("duplicate rule name %q (also spec.rules[%d]): nfd-master's logs and nfd-fn's results cannot tell the rules apart", r.Name, prev.index)
			if prev.ref != ref {
				sev = engine.SeverityInfo
				msg = fmt.Sprintf("rule name %q is also used in %s (spec.rules[%d]): nfd-master's logs cannot tell the rules apart", r.Name, prev.ref, prev.index)
			}
			c.add(o.Doc, ref, sev, "duplicate-rule-name", fmt.Sprintf("spec.rules[%d].name", i), false, msg)
		}
	}
	for _, g := range c.in.Groups {
		names := map[string]int{}
		for i, r := range g.Obj.Spec.Rules {
			if prev, dup := names[r.Name]; dup && r.Name != "" {
				c.add(g.Doc, groupRef(g.Obj), engine.SeverityWarning, "duplicate-rule-name", fmt.Sprintf("spec.featureGroupRules[%d].name", i), false,
					fmt.Sprintf("duplicate rule name %q (also spec.featureGroupRules[%d])", r.Name, prev))
				continue
			}
			names[r.Name] = i
		}
	}
}
