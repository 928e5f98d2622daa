package lint

import (
	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// compile adds the engine's compile diagnostics for every rule and group.
func (c *checker) compile() {
	docs := map[engine.ObjectRef]*Document{}
	rules := make([]*v1alpha1.NodeFeatureRule, len(c.in.Rules))
	for i, o := range c.in.Rules {
		rules[i] = o.Obj
		docs[ruleRef(o.Obj)] = o.Doc
	}
	_, diags := engine.Compile(rules)
	for _, g := range c.in.Groups {
		docs[groupRef(g.Obj)] = g.Doc
		_, gd := engine.CompileGroup(g.Obj)
		diags = append(diags, gd...)
	}
	for _, d := range diags {
		f := c.add(docs[d.Object], d.Object, d.Severity, compileCheck(d), d.Field, false, d.Message)
		f.Suggestion = d.Suggestion
	}
}

// compileCheck names the check behind an engine diagnostic from its field.
func compileCheck(d engine.Diagnostic) string {
	switch {
	case hasSuffix(d.Field, ".op"):
		return "invalid-op"
	case hasSuffix(d.Field, ".value"):
		return "invalid-value"
	case hasSuffix(d.Field, "Template"):
		return "template"
	case hasSuffix(d.Field, ".feature"):
		return "feature-name"
	case hasSuffix(d.Field, ".name"):
		return "rule-name"
	}
	return "rule"
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}
