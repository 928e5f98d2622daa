// Package lint checks NodeFeatureRule, NodeFeatureGroup and NodeFeature
// objects before they reach a cluster. Static checks need only the objects;
// fleet checks also take what the rules did on each node (a master.Fleet).
// Every finding is a diag.Diagnostic naming its object and field, with the
// line and column of the offending YAML node when the object came from a
// file.
//
// The rule engine's compile diagnostics and the per-node problems are the
// master pipeline's (pkg/master), not lint's: lint adds what nfd-master
// would silently tolerate.
package lint

import (
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Options select the checks.
type Options struct {
	// Master are nfd-master's settings, for judging rule outputs.
	Master master.Options
	// Outputs judges what rules write (labels, annotations, extended
	// resources, taints, @ references) from the rules alone, and the
	// compile problems of objects the pipeline leaves out. Validate and
	// render both want it, so that they give one verdict on one file
	// (render drops the per-node findings it covers: Uncovered).
	Outputs bool
	// Worker, when set, is the nfd-worker configuration the fleet runs
	// with: rules consuming features it withholds and custom rules its
	// custom source refuses are errors.
	Worker *WorkerConfig
	// Observe, when set, is called with the pipeline and its stream
	// before the fleet is rendered, for a caller that wants more of each
	// node than the checks keep (nfd-fn test's per-node view, matched
	// rules and group members) from the same render.
	Observe func(*master.Pipeline, *master.Stream)
	// Catalog, when set, declares third-party features: rules reading
	// them are checked as strictly as rules reading nfd-worker's.
	Catalog *FeatureCatalog
}

// Static runs every check that needs no fleet.
func Static(set *objects.Set, opts Options) diag.List {
	c := &checker{set: set, opts: opts.Master, catalog: opts.Catalog}
	c.duplicateObjects()
	if opts.Outputs {
		c.rejectedCompile()
	}
	c.catalogue()
	c.mistakes()
	c.templatePaths()
	c.templateLabels(c.templateShapes())
	c.groups()
	if opts.Outputs {
		c.outputs()
	}
	c.backrefs()
	if opts.Worker != nil {
		c.workerChecks(opts.Worker)
	}
	c.releaseNeeds()
	return c.withoutCascades()
}

// withoutCascades drops the findings about values that did not decode:
// the decoding error already says what is wrong there, and the checks saw
// the zero value left in its place (an "" the user never wrote, an empty
// value list), not what the file holds.
func (c *checker) withoutCascades() diag.List {
	undecoded := map[diag.ObjectRef][]string{}
	for _, r := range c.set.Rules {
		if len(r.Undecoded) > 0 {
			ref := objects.RuleRef(r.Obj)
			undecoded[ref] = append(undecoded[ref], r.Undecoded...)
		}
	}
	for _, g := range c.set.Groups {
		if len(g.Undecoded) > 0 {
			ref := objects.GroupRef(g.Obj)
			undecoded[ref] = append(undecoded[ref], g.Undecoded...)
		}
	}
	if len(undecoded) == 0 {
		return c.findings
	}
	out := c.findings[:0:0]
	for _, d := range c.findings {
		if !objects.Undecodes(undecoded[d.Object.Key()], d.Field) {
			out = append(out, d)
		}
	}
	return out
}

type checker struct {
	set      *objects.Set
	opts     master.Options
	findings diag.List
	// known caches the feature names of the input's NodeFeatures.
	known map[string]bool
	// catalog declares third-party features (nil: none).
	catalog *FeatureCatalog
}

// add records a finding, locating the field's node in the object's YAML.
// key selects the key node of a mapping entry (for unknown or duplicate
// names).
func (c *checker) add(o objects.Origin, ref diag.ObjectRef, sev diag.Severity, check, field string, key bool, msg string) *diag.Diagnostic {
	c.findings = append(c.findings, diag.Diagnostic{Severity: sev, Check: check, Object: ref, Field: field,
		Pos: o.Position(field, key), Message: msg})
	return &c.findings[len(c.findings)-1]
}

// Uncovered returns the per-node findings (a render's) that no static
// finding already reports at the same output: a label, annotation,
// extended resource or taint the rules write literally is judged once,
// statically, not again on every node that drops it.
func Uncovered(perNode, static diag.List) diag.List {
	covered := map[diag.ObjectRef][]string{}
	for _, s := range static {
		switch s.Check {
		case "output-label", "output-annotation", "output-extended-resource", "taint", "taint-disabled", "output-disabled":
			covered[s.Object] = append(covered[s.Object], s.Field)
		}
	}
	if len(covered) == 0 {
		return perNode
	}
	out := perNode[:0:0]
	for _, d := range perNode {
		if !coveredField(d.Field, covered[d.Object]) || (d.Check != "output-dropped" && d.Check != "taint-disabled") {
			out = append(out, d)
		}
	}
	return out
}

// OnTheFleet drops from static the findings of templates run on features
// made from their matchers (template, template-labels) for the rules whose
// templates the fleet shows failing or writing what nfd-master drops
// (perNode, a render's rule-failed and output-dropped findings): the
// nodes' real features answer what the sample guessed, once.
func OnTheFleet(static, perNode diag.List) diag.List {
	seen := map[diag.ObjectRef]map[string]bool{}
	for _, d := range perNode {
		if d.Check != "rule-failed" && d.Check != "output-dropped" {
			continue
		}
		if seen[d.Object] == nil {
			seen[d.Object] = map[string]bool{}
		}
		seen[d.Object][ruleOf(d.Field)] = true
	}
	if len(seen) == 0 {
		return static
	}
	out := static[:0:0]
	for _, d := range static {
		if (d.Check == "template" || d.Check == "template-labels") && strings.HasPrefix(d.Message, sampled) && seen[d.Object][ruleOf(d.Field)] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// ruleOf cuts a field path to the rule it is in: spec.rules[3].
func ruleOf(field string) string {
	if i := strings.Index(field, "]"); strings.HasPrefix(field, "spec.rules[") && i > 0 {
		return field[:i+1]
	}
	return field
}

// coveredField reports whether a per-node finding at field is about the
// output a static finding at one of fields names: the same field, a part
// of it (taints[0].key for taints[0]) or the list holding it (taints for
// taints[0]).
func coveredField(field string, fields []string) bool {
	for _, f := range fields {
		if f == field || strings.HasPrefix(f, field+".") || strings.HasPrefix(field, f+"[") {
			return true
		}
	}
	return false
}

// rejectedCompile reports the compile diagnostics of the objects the
// pipeline does not compile (refused by the API server, or replaced by a
// later object of the same name): a user fixing a file wants every
// problem in it at once.
func (c *checker) rejectedCompile() {
	for i := range c.set.Rules {
		if o := &c.set.Rules[i]; !o.Used() {
			_, diags := engine.Compile([]*api.NodeFeatureRule{o.Obj})
			c.placed(master.WithChecks(diags), o.Origin)
		}
	}
	for i := range c.set.Groups {
		if g := &c.set.Groups[i]; !g.Used() {
			_, diags := engine.CompileGroup(g.Obj)
			c.placed(master.WithChecks(diags), g.Origin)
		}
	}
}

// placed records diagnostics about the object at o, positioned there:
// another object of the same name elsewhere must not take them.
func (c *checker) placed(ds diag.List, o objects.Origin) {
	for _, d := range ds {
		d.Pos = o.Position(d.Field, false)
		c.findings = append(c.findings, d)
	}
}
