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
