package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/modes"
)

// newFlagSet returns a flag set that reports errors and usage on stderr.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage); fs.PrintDefaults() }
	return fs
}

// releaseFlag adds --nfd-version, the NFD release to render as, to a
// command's flags.
func releaseFlag(fs *flag.FlagSet) *string {
	return fs.String("nfd-version", "", modes.ReleaseFlagUsage())
}

// catalogFlag adds --feature-catalog, the file declaring third-party
// features (modes.ReadFeatureCatalog reads it), to a command's flags.
func catalogFlag(fs *flag.FlagSet) *string {
	return fs.String("feature-catalog", "", "a feature catalogue declaring features producers other than nfd-worker publish (names, types, elements; docs/checks.md NFD010): a misspelt declared feature or element is an error")
}

// crdFlag is --crd-version, the release whose CRDs admit the objects
// when they lag the operand.
func crdFlag(fs *flag.FlagSet) *string {
	return fs.String("crd-version", "", "admit objects with this NFD release's CRDs while rendering with --nfd-version's nfd-master (a CRD chart that lags the operand; docs/releases.md)")
}

// parseArgs parses the flags of a subcommand, wherever they stand among
// the positional arguments (pre-commit appends file names after them).
// -h or --help prints the usage on stdout: done, exit 0. A bad flag prints
// the error and the usage on stderr: done, exit 2.
func parseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) (positional []string, code int, done bool) {
	stderr := fs.Output()
	fs.SetOutput(io.Discard)
	positional, err := parseInterspersed(fs, args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		fs.SetOutput(stderr)
		return nil, 0, true
	case err != nil:
		complain(stderr, "nfd-fn %s: %v%s", fs.Name(), err, flagSuggestion(fs, err))
		fs.Usage()
		return nil, 2, true
	}
	return positional, 0, false
}

// flagSuggestion is the did-you-mean of a flag fs does not define (the
// flag package's "flag provided but not defined: -name"), or "".
func flagSuggestion(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	dashes := "--"
	if len(strings.TrimLeft(name, "-")) == 1 {
		dashes = "-"
	}
	return didYouMean(strings.TrimLeft(name, "-"), names, dashes)
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// usageError reports a bad flag value: the message and the usage on
// stderr, exit 2.
func usageError(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(fs.Output(), "nfd-fn %s: "+format+"\n", append([]any{fs.Name()}, args...)...)
	fs.Usage()
	return 2
}
