package lint

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// duplicateObjects reports rule names used twice (objects defined twice
// are objects.Set's to report, as it decides which one is used).
func (c *checker) duplicateObjects() {
	c.duplicateRuleNames()
}

type ruleSite struct {
	ref   diag.ObjectRef
	index int
	where objects.Origin
}

// duplicateRuleNames reports a rule name used twice: within one object
// always, and across the objects nfd-master runs (an object defined twice
// is one duplicate, reported once by objects.Set, not once more per rule
// of its copy). The finding names the other object and its file.
func (c *checker) duplicateRuleNames() {
	seen := map[string]ruleSite{}
	for i := range c.set.Rules {
		o := &c.set.Rules[i]
		ref := objects.RuleRef(o.Obj)
		own := map[string]int{}
		for i, r := range o.Obj.Spec.Rules {
			if r.Name == "" {
				continue
			}
			field := fmt.Sprintf("spec.rules[%d].name", i)
			if prev, dup := own[r.Name]; dup {
				c.add(o.Origin, ref, diag.Warning, "duplicate-rule-name", field, false,
					fmt.Sprintf("duplicate rule name %q (also spec.rules[%d]): nfd-master's logs and nfd-fn's results cannot tell the rules apart", r.Name, prev))
				continue
			}
			own[r.Name] = i
			if !o.Used() {
				continue
			}
			if prev, dup := seen[r.Name]; dup {
				c.add(o.Origin, ref, diag.Info, "duplicate-rule-name", field, false,
					fmt.Sprintf("rule name %q is also used in %s (spec.rules[%d], also in %s): nfd-master's logs cannot tell the rules apart", r.Name, prev.ref, prev.index, prev.where.Where()))
				continue
			}
			seen[r.Name] = ruleSite{ref, i, o.Origin}
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
