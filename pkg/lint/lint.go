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
	// resources, taints, @ references) from the rules alone. Validate
	// wants it; render leaves it off because the pipeline reports what
	// nfd-master drops on each node instead.
	Outputs bool
}

// Static runs every check that needs no fleet.
func Static(set *objects.Set, opts Options) diag.List {
	c := &checker{set: set, opts: opts.Master}
	c.duplicateObjects()
	if opts.Outputs {
		c.rejectedCompile()
	}
	c.catalogue()
	if opts.Outputs {
		c.outputs()
	}
	c.backrefs()
	c.releaseNeeds()
	return c.findings
}

type checker struct {
	set      *objects.Set
	opts     master.Options
	findings diag.List
	// known caches the feature names of the input's NodeFeatures.
	known map[string]bool
}

// add records a finding, locating the field's node in the object's YAML.
// key selects the key node of a mapping entry (for unknown or duplicate
// names).
func (c *checker) add(o objects.Origin, ref diag.ObjectRef, sev diag.Severity, check, field string, key bool, msg string) *diag.Diagnostic {
	c.findings = append(c.findings, diag.Diagnostic{Severity: sev, Check: check, Object: ref, Field: field,
		Pos: o.Position(field, key), Message: msg})
	return &c.findings[len(c.findings)-1]
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
