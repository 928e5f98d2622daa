package cli

import (
	"errors"
	"io"

	"github.com/nfd-fn/nfd-fn/internal/modes"
)

const testUsage = `Usage: nfd-fn test [flags] [PATH...]

Runs every RuleTest (kind: RuleTest, apiVersion: nfd-fn.dev/v1alpha1)
in the files under the PATHs (default: the current directory): renders
each test's inputs as nfd-master would and checks what it expects of
nodes, groups and findings. A failure names the test file and line, the
node, the key, the expected and the got value; a label expected but
absent comes with the explain tree of the rule that should set it.
docs/testing.md describes the format; nfd-fn schema ruletest prints its
JSON Schema.

--init DIR writes DIR/ruletest.yaml, a RuleTest whose expectations are
what DIR's rules give its nodes today (with --config FILE, under that
functionConfig's settings; with --nfd-version, as that release).

Exit status: 0 when every test passes, 1 when one fails or an input has
an error, 2 on bad usage.

Flags:
`

// runTest implements `nfd-fn test`.
func runTest(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("test", testUsage, stderr)
	output := fs.String("output", "text", "report format: "+modes.TestFormats)
	fs.StringVar(output, "o", "text", "short for --output")
	update := fs.Bool("update", false, "write or refresh the snapshots (spec.expect.snapshot) instead of comparing them")
	coverage := fs.Bool("coverage", false, "report the NodeFeatureRule and NodeFeatureGroup rules no test node matched")
	minCoverage := fs.Float64("min-coverage", 0, "fail when fewer than this percentage of rules match on a test node (implies --coverage)")
	initDir := fs.String("init", "", "write DIR/ruletest.yaml from a render of DIR's rules over its NodeFeatures, and exit")
	config := fs.String("config", "", "with --init: the functionConfig file (nfd-master's settings) the render uses, named in the RuleTest")
	nfdVersion := releaseFlag(fs)
	catalogFile := catalogFlag(fs)
	paths, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	catalog, err := modes.ReadFeatureCatalog(*catalogFile)
	if err != nil {
		complain(stderr, "nfd-fn test: %v", err)
		return 2
	}
	write, ok := modes.TestWriter(*output)
	switch {
	case !ok:
		return usageError(fs, "unknown --output %q: want %s", *output, modes.TestFormats)
	case *minCoverage < 0 || *minCoverage > 100:
		return usageError(fs, "--min-coverage %g: want a percentage from 0 to 100", *minCoverage)
	case *initDir != "" && len(paths) > 0:
		return usageError(fs, "--init DIR takes no PATH arguments")
	case *config != "" && *initDir == "":
		return usageError(fs, "--config goes with --init (a RuleTest names its own: spec.config)")
	case *initDir != "":
		return runTestInit(*initDir, *config, *nfdVersion, stdout, stderr)
	case len(paths) == 0:
		paths = []string{"."}
	}
	rep, err := modes.Test(paths, modes.TestOptions{Update: *update, NFDVersion: *nfdVersion,
		Coverage: *coverage, MinCoverage: *minCoverage, FeatureCatalog: catalog})
	switch {
	case errors.Is(err, modes.ErrNoTests):
		complain(stderr, "nfd-fn test: %v", err)
		return 1
	case err != nil:
		complain(stderr, "nfd-fn test: %v", err)
		return 2
	}
	if err := write(stdout, rep); err != nil {
		complain(stderr, "nfd-fn test: writing output: %v", err)
		return 1
	}
	if rep.Failed() {
		return 1
	}
	return 0
}

// runTestInit implements `nfd-fn test --init DIR`.
func runTestInit(dir, config, nfdVersion string, stdout, stderr io.Writer) int {
	path, err := modes.TestInit(dir, config, modes.TestOptions{NFDVersion: nfdVersion})
	if err != nil {
		complain(stderr, "nfd-fn test --init: %v", err)
		return 1
	}
	complain(stdout, "wrote %s: run nfd-fn test %s", path, dir)
	return 0
}
