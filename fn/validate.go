package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// validateList runs the checks of mode validate: decoding, the rule
// engine's compile checks, nfd-fn's lint checks and, when the list holds
// NodeFeatures, the fleet checks; hand-written Nova provider configs in the
// package are checked against Nova's schema. Items pass through untouched.
func validateList(rl *krm.ResourceList, s Settings, r *results) {
	collectInputs(rl, r)
	in, items := lintInput(rl, s)
	r.findings(lint.Check(in), items)
	findProviderConfigs(rl, r)
}
