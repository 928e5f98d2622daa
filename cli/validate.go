package cli

import (
	"io"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

const validateUsage = `Usage: nfd-fn validate [flags] [FILE|DIR|-]...

Checks NodeFeatureRule, NodeFeatureGroup and NodeFeature files (multi-document
YAML or JSON; directories are walked for *.yaml, *.yml and *.json) and reports
every problem as path:line:col: severity: message. With no files it reads a
KRM ResourceList on stdin and writes it back with results (mode validate;
--worker-config applies to it too);
- reads stdin as one more file. A ResourceList among the files (kpt fn
source's output, nfd-fn's own) is read as its items, and its functionConfig
configures the run unless --config is given too, which is an error.

Exit status: 1 when there is an error (or, with --strict, a warning), 2 on
bad usage, else 0.

Flags:
`

// runValidate implements `nfd-fn validate`.
func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("validate", validateUsage, stderr)
	output := fs.String("output", "text", "output format: text, json (a list of KRM results), sarif, github (workflow commands annotating the files) or junit (a testsuite per file, a testcase per check that fired)")
	fs.StringVar(output, "o", "text", "short for --output")
	strict := fs.Bool("strict", false, "fail on warnings too")
	config := fs.String("config", "", "functionConfig file (ConfigMap or NFDFunctionConfig) with nfd-master's settings")
	ignore := fs.String("ignore", "", "accept these known findings: check IDs or names (NFD020, matches-no-node), CHECK:rule for one rule, comma-separated (docs/checks.md)")
	catalog := catalogFlag(fs)
	worker := fs.String("worker-config", "", "nfd-worker configuration (nfd-worker.conf, its ConfigMap, or Helm values with worker.config): rules consuming features its core.noPublishFeatures withholds, and custom rules its custom source refuses, are errors")
	nfdVersion := releaseFlag(fs)
	crdVersion := crdFlag(fs)
	context := fs.String("context", "", "also read the NFD files under this directory, so references resolve against them, but report only problems in FILE|DIR (pre-commit passes only staged files)")
	paths, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	if len(paths) == 0 && *config == "" && *output == "text" && !*strict && *context == "" && *ignore == "" && *catalog == "" {
		wc, err := modes.ReadWorkerConfig(*worker)
		if err != nil {
			complain(stderr, "nfd-fn validate: --worker-config: %v", err)
			return 2
		}
		return runFunction("validate", nil, fn.RunOptions{Discover: modes.HostDiscover, NFDVersion: *nfdVersion, CRDVersion: *crdVersion, WorkerConfig: wc}, stdin, stdout, stderr)
	}
	if len(paths) == 0 {
		complain(stderr, "nfd-fn validate: flags need FILE or DIR arguments (with none, a ResourceList is read from stdin)")
		return 2
	}
	form, ok := validateOutputs.Find(*output)
	if !ok {
		complain(stderr, "nfd-fn validate: unknown --output %q: want %s", *output, validateOutputs.Want())
		return 2
	}
	files := modes.OpenFiles(paths, stdin)
	defer files.Close()
	if code := loadSettings("validate", files, modes.SettingsFlags{Config: *config, NFDVersion: *nfdVersion, CRDVersion: *crdVersion}, stderr); code != 0 {
		return code
	}
	findings, read, err := modes.ValidateFiles(files, modes.ValidateFilesOptions{Ignore: *ignore, WorkerConfig: *worker, Context: *context, FeatureCatalog: *catalog})
	if err != nil {
		complain(stderr, "nfd-fn validate: %v", err)
		return 2
	}
	if err := form.Write(stdout, findings); err != nil {
		complain(stderr, "nfd-fn validate: writing output: %v", err)
		return 1
	}
	return validateExit(findings, read, *strict, stderr)
}

// validateOutputs are validate's --output forms over files (modes.Outputs).
var validateOutputs = modes.Outputs[func(io.Writer, diag.List) error]{
	{Name: "text", Write: diag.WriteText},
	{Name: "json", Write: fn.WriteResultsJSON},
	{Name: "sarif", Write: func(w io.Writer, l diag.List) error { return diag.WriteSARIF(w, l, Version) }},
	{Name: "github", Write: diag.WriteGitHub},
	{Name: "junit", Write: diag.WriteJUnit},
}

// validateExit prints a summary to stderr, errors first, then warnings,
// then notes (info findings), and picks the exit code.
func validateExit(findings diag.List, files modes.FilesRead, strict bool, stderr io.Writer) int {
	c := findings.Counts()
	errs, warns := c[diag.Error], c[diag.Warning]
	skipped := ""
	switch {
	case files.Skipped == 1:
		skipped = " (1 file that does not mention NFD skipped)"
	case files.Skipped > 1:
		skipped = " (" + diag.Plural(files.Skipped, "file") + " that do not mention NFD skipped)"
	}
	complain(stderr, "nfd-fn validate: %s, %s, %s in %s%s", diag.Plural(errs, "error"), diag.Plural(warns, "warning"), diag.Plural(c[diag.Info], "note"), diag.Plural(files.Checked, "file"), skipped)
	if errs > 0 || (strict && warns > 0) {
		return 1
	}
	return 0
}
