package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/admission"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// checkNeedsRelease is the check of rules that need a recent NFD release.
const checkNeedsRelease = "needs-release"

// releaseNeeds warns, when the release rendered as is assumed (nfdVersion
// unset and nothing in the input shows one), about the rules and groups
// that need a recent NFD release: what older releases' CRDs refuse or
// prune (Ge, Le, GeLe, type, group vars), read from those CRDs, and Sprig
// functions in templates (v0.18 on). With a release given, admission and
// the engine report what that release does not have.
func (c *checker) releaseNeeds() {
	if !c.opts.NFDRelease().Assumed {
		return
	}
	for i := range c.set.Rules {
		o := &c.set.Rules[i]
		if o.Used() {
			c.needs(api.KindNodeFeatureRule, objects.RuleRef(o.Obj), o.Origin, ruleTemplates(o.Obj))
		}
	}
	for i := range c.set.Groups {
		o := &c.set.Groups[i]
		if o.Used() {
			c.needs(api.KindNodeFeatureGroup, objects.GroupRef(o.Obj), o.Origin, groupTemplates(o.Obj))
		}
	}
}

// needs reports one object's needs, if any, at the first field that has
// one.
func (c *checker) needs(kind string, ref diag.ObjectRef, o objects.Origin, templates map[string]string) {
	var need release.Version
	var why []admission.Need
	if o.Node != nil {
		if first, reasons, ok := admission.FirstAccepting(kind, o.Node); ok && first != release.Upstreams()[0] {
			need, why = first, reasons
		}
	}
	sprigFirst, _ := release.SprigFuncs.First()
	for _, field := range slices.Sorted(maps.Keys(templates)) {
		if fns := engine.SprigFuncsIn(templates[field]); len(fns) > 0 {
			if need.Less(sprigFirst) {
				need = sprigFirst
			}
			why = append(why, admission.Need{Field: field, What: "Sprig " + strings.Join(fns, ", ")})
		}
	}
	if len(why) == 0 {
		return
	}
	c.add(o, ref, diag.Warning, checkNeedsRelease, why[0].Field, false,
		fmt.Sprintf("this %s needs NFD %s or later (%s); clusters on older releases, OpenShift's operand included, refuse it or run it otherwise: "+
			"set nfdVersion to your cluster's release to check it", kind, need, describeNeeds(why)))
}

// describeNeeds lists what is needed, each once, in order: "Ge, type".
func describeNeeds(why []admission.Need) string {
	var parts []string
	for _, n := range why {
		if !slices.Contains(parts, n.What) {
			parts = append(parts, n.What)
		}
	}
	return strings.Join(parts, ", ")
}

// ruleTemplates are a NodeFeatureRule's templates by field.
func ruleTemplates(o *api.NodeFeatureRule) map[string]string {
	out := map[string]string{}
	for i, r := range o.Spec.Rules {
		addTemplate(out, fmt.Sprintf("spec.rules[%d].labelsTemplate", i), r.LabelsTemplate)
		addTemplate(out, fmt.Sprintf("spec.rules[%d].varsTemplate", i), r.VarsTemplate)
	}
	return out
}

// groupTemplates are a NodeFeatureGroup's templates by field.
func groupTemplates(o *api.NodeFeatureGroup) map[string]string {
	out := map[string]string{}
	for i, r := range o.Spec.Rules {
		addTemplate(out, fmt.Sprintf("spec.featureGroupRules[%d].varsTemplate", i), r.VarsTemplate)
	}
	return out
}

func addTemplate(out map[string]string, field, text string) {
	if text != "" {
		out[field] = text
	}
}
