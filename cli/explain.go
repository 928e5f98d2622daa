package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/explain"
	"github.com/nfd-fn/nfd-fn/pkg/master"
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
	paths, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	if *node == "" || len(paths) == 0 {
		complain(stderr, "nfd-fn explain: --node and at least one FILE or DIR are required")
		fs.Usage()
		return 2
	}
	st := inputs.NewStdin(stdin)
	defer st.Close()
	opts, code := runSettings("explain", *config, *nfdVersion, paths, st, stderr)
	if code != 0 {
		return code
	}
	set := opts.NewSet()
	in := inputs.NewReader(set, fn.Decoding) // open while the set is used: NodeFeatures are read lean
	in.Stdin = st
	defer in.Close()
	if code := readInput(in, paths, stderr); code != 0 {
		return code
	}
	for _, d := range in.Admit(&opts) {
		if d.Severity != diag.Info {
			fmt.Fprintln(stderr, d.Text())
		}
	}
	p := master.Prepare(set, opts.Options)
	res, traces, ok := p.Explain(*node)
	if !ok {
		complain(stderr, "nfd-fn explain: no NodeFeature for node %q (%s)", *node, knownNodes(p))
		return 1
	}
	if *rule != "" && !anySelected(traces, *rule) {
		complain(stderr, "nfd-fn explain: no rule named %q", *rule)
		return 1
	}
	if err := explain.Write(stdout, &res, traces, *rule); err != nil {
		complain(stderr, "nfd-fn explain: writing output: %v", err)
		return 1
	}
	return 0
}

// readInput reads the files into in's set; the errors in them are printed
// and the objects they affect are left out, as the API server would
// refuse them.
func readInput(in *inputs.Reader, paths []string, stderr io.Writer) int {
	ds, _, err := in.Read(paths, false)
	if err != nil {
		complain(stderr, "nfd-fn: %v", err)
		return 2
	}
	for i := range ds {
		if ds[i].Severity == diag.Error {
			fmt.Fprintln(stderr, ds[i].Text()) // Text escapes
		}
	}
	return 0
}

func knownNodes(p *master.Pipeline) string {
	var names []string
	for _, n := range p.NodeNames() {
		if p.HasNode(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "the files hold no NodeFeatures with the " + api.NodeNameLabel + " label"
	}
	return "known nodes: " + strings.Join(names, ", ")
}

func anySelected(traces []engine.RuleTrace, filter string) bool {
	for i := range traces {
		if explain.Selected(&traces[i], filter) {
			return true
		}
	}
	return false
}
