package lint

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// where describes a document position for messages about a second one.
func where(d objects.Origin) string {
	if d.File == "" {
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
	seen := map[diag.ObjectRef]objects.Origin{}
	check := func(ref diag.ObjectRef, doc objects.Origin) {
		if prev, dup := seen[ref]; dup {
			c.add(doc, ref, diag.Error, "duplicate-object", "metadata.name", false,
				fmt.Sprintf("duplicate %s (also at %s): the API server keeps only one of them", ref, where(prev)))
			return
		}
		seen[ref] = doc
	}
	for _, o := range c.set.Rules {
		check(objects.RuleRef(o.Obj), o.Origin)
	}
	for _, o := range c.set.Groups {
		check(objects.GroupRef(o.Obj), o.Origin)
	}
	for _, o := range c.set.Features {
		check(objects.FeatureRef(o.Obj), o.Origin)
	}
	c.duplicateRuleNames()
}

type ruleSite struct {
	ref   diag.ObjectRef
	index int
}

func (c *checker) duplicateRuleNames() {
	seen := map[string]ruleSite{}
	for _, o := range c.set.Rules {
		ref := objects.RuleRef(o.Obj)
		for i, r := range o.Obj.Spec.Rules {
			if r.Name == "" {
				continue
			}
			prev, dup := seen[r.Name]
			if !dup {
				seen[r.Name] = ruleSite{ref, i}
				continue
			}
			sev := diag.Warning
			msg := fmt.Sprintf("duplicate rule name %q (also spec.rules[%d]): nfd-master's logs and nfd-fn's results cannot tell the rules apart", r.Name, prev.index)
			if prev.ref != ref {
				sev = diag.Info
				msg = fmt.Sprintf("rule name %q is also used in %s (spec.rules[%d]): nfd-master's logs cannot tell the rules apart", r.Name, prev.ref, prev.index)
			}
			c.add(o.Origin, ref, sev, "duplicate-rule-name", fmt.Sprintf("spec.rules[%d].name", i), false, msg)
		}
	}
	for _, g := range c.set.Groups {
		names := map[string]int{}
		for i, r := range g.Obj.Spec.Rules {
			if prev, dup := names[r.Name]; dup && r.Name != "" {
				c.add(g.Origin, objects.GroupRef(g.Obj), diag.Warning, "duplicate-rule-name", fmt.Sprintf("spec.featureGroupRules[%d].name", i), false,
					fmt.Sprintf("duplicate rule name %q (also spec.featureGroupRules[%d])", r.Name, prev))
				continue
			}
			names[r.Name] = i
		}
	}
}
