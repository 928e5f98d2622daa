package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/explain"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/render"
)

const explainUsage = `Usage: nfd-fn explain --node NAME [--rule NAME] [--config FILE] FILE|DIR...

For one node, shows for each NodeFeatureRule rule whether it matched and, for
each term and expression, the element values it saw and why it passed or
failed; then the node's labels with the rule each came from. The files hold
the node's NodeFeature objects and the NodeFeatureRules.

Flags:
`

// runExplain implements `nfd-fn explain`.
func runExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain", explainUsage, stderr)
	node := fs.String("node", "", "the node to explain (required)")
	rule := fs.String("rule", "", "explain only this rule (its name, or <object>/<rule name>)")
	config := fs.String("config", "", "functionConfig file (ConfigMap or NFDFunctionConfig) with nfd-master's settings")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if *node == "" || len(paths) == 0 {
		fmt.Fprintln(stderr, "nfd-fn explain: --node and at least one FILE or DIR are required")
		fs.Usage()
		return 2
	}
	opts, code := validateOptions(*config, stderr)
	if code != 0 {
		return code
	}
	in, code := readInput(paths, opts, stderr)
	if code != 0 {
		return code
	}
	objs := nodeFeatures(in, *node)
	if len(objs) == 0 {
		fmt.Fprintf(stderr, "nfd-fn explain: no NodeFeature for node %q (%s)\n", *node, knownNodes(in))
		return 1
	}
	var rules []*api.NodeFeatureRule
	for _, o := range in.Rules {
		if !o.Rejected {
			rules = append(rules, o.Obj)
		}
	}
	rs, _ := engine.Compile(rules)
	res, traces := render.NewRenderer(opts, rs).ExplainNode(*node, objs, nil)
	if *rule != "" && !anySelected(traces, *rule) {
		fmt.Fprintf(stderr, "nfd-fn explain: no rule named %q\n", *rule)
		return 1
	}
	if err := explain.Write(stdout, &res, traces, *rule); err != nil {
		fmt.Fprintf(stderr, "nfd-fn explain: writing output: %v\n", err)
		return 1
	}
	return 0
}

// readInput reads and decodes the files; decoding errors are printed and
// the objects they affect are left out, as the API server would refuse them.
func readInput(paths []string, opts render.Options, stderr io.Writer) (*lint.Input, int) {
	in, findings, _, err := decodeFiles(paths, opts)
	if err != nil {
		fmt.Fprintf(stderr, "nfd-fn: %v\n", err)
		return nil, 2
	}
	for i := range findings {
		if findings[i].Severity == engine.SeverityError {
			fmt.Fprintln(stderr, findings[i].Text())
		}
	}
	return in, 0
}

func nodeFeatures(in *lint.Input, node string) []render.NodeFeatureObject {
	var objs []render.NodeFeatureObject
	for _, nf := range in.Features {
		if !nf.Rejected && nf.Obj.Metadata.Labels[api.NodeNameLabel] == node {
			ref := engine.ObjectRef{Kind: api.KindNodeFeature, Namespace: nf.Obj.Metadata.Namespace, Name: nf.Obj.Metadata.Name}
			objs = append(objs, render.NodeFeatureObject{Ref: ref, Spec: &nf.Obj.Spec})
		}
	}
	return objs
}

func knownNodes(in *lint.Input) string {
	seen := map[string]bool{}
	var names []string
	for _, nf := range in.Features {
		if n := nf.Obj.Metadata.Labels[api.NodeNameLabel]; n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "the files hold no NodeFeatures with the " + api.NodeNameLabel + " label"
	}
	sort.Strings(names)
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
