// Package cli is nfd-fn's command line: it picks the mode from the
// arguments, runs it and maps the outcome to an exit code. Each subcommand
// checks its flags and calls one library function.
package cli

import (
	"fmt"
	"io"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// Version is nfd-fn's version. It is pkg/version.Version, which release
// builds set with -ldflags "-X github.com/nfd-fn/nfd-fn/pkg/version.Version=...".
var Version = version.Version

const usage = `nfd-fn renders node-feature-discovery rules offline.

Usage:
  nfd-fn [render] < resourcelist.yaml        render Nodes (the KRM function; default)
  nfd-fn render [FILE|DIR|-]...              render the objects in files, directories or kubectl exports
  nfd-fn render --output apply FILE|DIR...   the Nodes alone, only what NFD owns, for kubectl apply --server-side
  nfd-fn render -o apply-status FILE|DIR...  their extended resources, for the same with --subresource=status
  nfd-fn render --output nova FILE|DIR...    the OpenStack Nova provider config file (or < list.yaml)
  nfd-fn render -o labels FILE|DIR...        what NFD gives each node, as a table (labels-json: JSON)
  nfd-fn validate [FILE|DIR]...              check rules before they reach a cluster (stdin: a ResourceList)
  nfd-fn explain --node NAME FILE|DIR...     show why each rule matched or not on one node
  nfd-fn plan [--base PATH] PATH...          show what a rule change does to nodes and workloads
  nfd-fn test [PATH...]                      run the RuleTests under PATHs: what rules must give nodes
  nfd-fn schema ruletest                     print the JSON Schema of a RuleTest, for editors
  nfd-fn discover [flags]                    print the NodeFeature nfd-worker would publish for this host
  nfd-fn version | --version                 print the version
  nfd-fn help COMMAND | COMMAND --help       a command's flags

As a KRM function nfd-fn reads a ResourceList on stdin and writes one on
stdout; configuration comes from its functionConfig (see README.md).
`

// Main runs nfd-fn with args (without the program name) and returns the
// process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return fn.Guard(func() int { return dispatch(args, stdin, stdout, stderr) }, vanished(stderr))
}

// vanished reports an input cut short while it was read (fn.Guard) and
// returns exit 1.
func vanished(stderr io.Writer) func(error) int {
	return func(err error) int {
		complain(stderr, "nfd-fn: %v", err)
		return 1
	}
}

// dispatch runs the command args name.
func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "render"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "render":
		return runRender(args, stdin, stdout, stderr)
	case "validate":
		return runValidate(args, stdin, stdout, stderr)
	case "explain":
		return runExplain(args, stdin, stdout, stderr)
	case "plan":
		return runPlan(args, stdin, stdout, stderr)
	case "discover":
		return runDiscover(args, stdout, stderr)
	case "test":
		return runTest(args, stdout, stderr)
	case "schema":
		return runSchema(args, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, Version)
		return 0
	case "help", "-h", "--help":
		if len(args) > 0 && args[0] != "help" && args[0] != "version" {
			return dispatch([]string{args[0], "--help"}, stdin, stdout, stderr) // help CMD: CMD's own
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "nfd-fn: unknown command %q%s\n\n%s", diag.Escape(cmd), didYouMean(cmd, commands, ""), usage)
	return 2
}

// commands are nfd-fn's subcommands, for the did-you-mean of a mistyped one.
var commands = []string{"render", "validate", "explain", "plan", "discover", "test", "schema", "version", "help"}

// didYouMean is "; did you mean PREFIX+X?" for the candidate X closest to
// word (suggest.Closest), or "" when none is close.
func didYouMean(word string, candidates []string, prefix string) string {
	if c := suggest.Closest(word, candidates); c != "" {
		return "; did you mean " + prefix + c + "?"
	}
	return ""
}

// complain writes one line to w (stderr), escaped with diag.Escape: the
// paths, names and errors in it may come from input nfd-fn did not write,
// and must not rewrite the reader's terminal.
func complain(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, diag.Escape(fmt.Sprintf(format, args...)))
}
