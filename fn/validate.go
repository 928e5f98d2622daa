package fn

import (
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// validateList runs the checks of mode validate: decoding, the rule
// engine's compile checks, nfd-fn's lint checks and, when the list holds
// NodeFeatures, the fleet checks. Items pass through untouched.
func validateList(rl *resourceList, s Settings, r *results) {
	collectInputs(rl, r)
	in, items := lintInput(rl, s)
	r.findings(lint.Check(in), items)
}
