package cli

import (
	"errors"
	"io"

	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

const explainUsage = `Usage: nfd-fn explain --node NAME [--rule NAME] [--config FILE] FILE|DIR|-...

For one node, shows for each NodeFeatureRule rule whether it matched and, for
each term and expression, the element values it saw and why it passed or
failed; then the node's labels with the rule each came from. The files hold
the node's NodeFeature objects and the NodeFeatureRules; - is stdin, and a
ResourceList is read as its items (its functionConfig, if any, instead of
--config).

Flags:
`

// runExplain implements `nfd-fn explain`.
func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain", explainUsage, stderr)
	node := fs.String("node", "", "the node to explain (required)")
	rule := fs.String("rule", "", "explain only this rule (its name, or <object>/<rule name>)")
	config := fs.String("config", "", "functionConfig file (ConfigMap or NFDFunctionConfig) with nfd-master's settings")
	nfdVersion := releaseFlag(fs)
	crdVersion := crdFlag(fs)
	paths, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	if *node == "" || len(paths) == 0 {
		complain(stderr, "nfd-fn explain: --node and at least one FILE or DIR are required")
		fs.Usage()
		return 2
	}
	files := modes.OpenFiles(paths, stdin)
	defer files.Close()
	if code := loadSettings("explain", files, modes.SettingsFlags{Config: *config, NFDVersion: *nfdVersion, CRDVersion: *crdVersion}, stderr); code != 0 {
		return code
	}
	e, told, err := modes.ExplainFiles(files, *node, *rule)
	if diag.WriteText(stderr, told) != nil {
		return 1
	}
	var unread *modes.ReadError
	switch {
	case errors.As(err, &unread):
		complain(stderr, "nfd-fn: %v", err)
		return 2
	case err != nil:
		complain(stderr, "nfd-fn explain: %v", err)
		return 1
	}
	if err := e.Write(stdout); err != nil {
		complain(stderr, "nfd-fn explain: writing output: %v", err)
		return 1
	}
	return 0
}
