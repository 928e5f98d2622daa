package fn

import (
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// validateList runs the checks that need no fleet: decoding, rule and group
// compilation and the configuration. Items pass through untouched.
func validateList(rl *resourceList, s Settings, r *results) {
	in := collectInputs(rl, r)
	_, diags := engine.Compile(in.rules)
	r.diagnostics(diags)
	for _, g := range in.groups {
		_, gd := engine.CompileGroup(g.obj)
		r.diagnostics(gd)
	}
}
