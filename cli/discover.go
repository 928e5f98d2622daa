package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"sigs.k8s.io/yaml"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// runDiscover implements `nfd-fn discover`: print the NodeFeature that
// nfd-worker would publish for this host.
func runDiscover(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("discover", flag.ContinueOnError)
	fs.SetOutput(stderr)
	nodeName := fs.String("node-name", "", "node name (default: $NODE_NAME, else the host name)")
	namespace := fs.String("namespace", "node-feature-discovery", "namespace of the NodeFeature")
	hostRoot := fs.String("host-root", "/", "read sys/, proc/, etc/, boot/, lib/ and usr/lib/ under this directory")
	featuresDir := fs.String("features-dir", "", "features.d directory (default: <host-root>/etc/kubernetes/node-feature-discovery/features.d)")
	sources := fs.String("sources", "", "comma-separated sources to run (default: all)")
	skip := fs.String("skip-sources", "", "comma-separated sources to skip")
	config := fs.String("config", "", "nfd-worker configuration file (for sources.custom and source settings)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	opts := discover.Options{HostRoot: *hostRoot, FeaturesDir: *featuresDir, Namespace: *namespace,
		Sources: splitFlag(*sources), SkipSources: splitFlag(*skip), Version: Version, Evaluator: engineEvaluator{}}
	opts.NodeName = resolveNodeName(*nodeName, stderr)
	if *config != "" {
		b, err := os.ReadFile(*config)
		if err != nil {
			fmt.Fprintf(stderr, "nfd-fn discover: reading %q: %v\n", *config, err)
			return 1
		}
		opts.WorkerConfig = b
	}
	nf, warnings, err := discover.Discover(context.Background(), opts)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "nfd-fn discover: %v\n", err)
		return 1
	}
	out, err := yaml.Marshal(nf)
	if err != nil {
		fmt.Fprintf(stderr, "nfd-fn discover: encoding: %v\n", err)
		return 1
	}
	stdout.Write(out)
	return 0
}

// hostDiscover snapshots this host with defaults, for the KRM mode
// discover (kpt fn eval --exec nfd-fn -- mode=discover).
func hostDiscover() (*api.NodeFeature, []string, error) {
	opts := discover.Options{HostRoot: "/", Version: Version, Evaluator: engineEvaluator{},
		NodeName: resolveNodeName("", io.Discard)}
	nf, warnings, err := discover.Discover(context.Background(), opts)
	msgs := make([]string, len(warnings))
	for i, w := range warnings {
		msgs[i] = w.String()
	}
	return nf, msgs, err
}

// resolveNodeName follows nfd-worker: NODE_NAME, else the host name.
func resolveNodeName(flagValue string, stderr io.Writer) string {
	if flagValue != "" {
		return flagValue
	}
	if n := os.Getenv("NODE_NAME"); n != "" {
		return n
	}
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	fmt.Fprintf(stderr, "note: NODE_NAME is not set; using the host name %q as the node name\n", h)
	return h
}

func splitFlag(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// engineEvaluator runs nfd-worker's custom rules with nfd-fn's engine.
type engineEvaluator struct{}

// EvaluateRule implements discover.RuleEvaluator.
func (engineEvaluator) EvaluateRule(r api.Rule, f api.Features) (discover.RuleOutput, error) {
	out, matched, err := engine.EvaluateRule(&r, &f)
	if err != nil || !matched {
		return discover.RuleOutput{}, err
	}
	return discover.RuleOutput{Matched: true, Labels: out.Labels, Vars: out.Vars}, nil
}
