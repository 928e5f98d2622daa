package cli

import (
	"context"
	"io"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
)

var discoverUsage = `Usage: nfd-fn discover [flags]

Prints the NodeFeature nfd-worker ` + discover.DefaultNFDVersion + ` (or the release --nfd-version
names) would publish for this host (or for the host root given), named
after the node. Nothing is written to the host; no hook is run.

Flags:
`

// runDiscover implements `nfd-fn discover`: print the NodeFeature that
// nfd-worker would publish for this host.
func runDiscover(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("discover", discoverUsage, stderr)
	var o discover.Options
	fs.StringVar(&o.NodeName, "node-name", "", "node name (default: $NODE_NAME, else the host name)")
	fs.StringVar(&o.Namespace, "namespace", discover.DefaultNamespace, "namespace of the NodeFeature")
	fs.StringVar(&o.HostRoot, "host-root", "/", "read sys/, proc/, etc/, boot/, lib/, usr/lib/ and features.d under this directory")
	fs.StringVar(&o.FeaturesDir, "features-dir", "", "features.d directory (default: <host-root>/etc/kubernetes/node-feature-discovery/features.d)")
	sources := fs.String("sources", "", "comma-separated sources to run (default: all of "+strings.Join(discover.SourceNames(), ", ")+")")
	skip := fs.String("skip-sources", "", "comma-separated sources to skip")
	fs.StringVar(&o.WorkerConfigPath, "config", "", "nfd-worker configuration file (core and sources settings, custom rules)")
	fs.StringVar(&o.NFDVersion, "nfd-version", discover.DefaultNFDVersion, "reproduce this nfd-worker release: "+strings.Join(discover.SupportedNFDVersions(), ", "))
	fs.StringVar(&o.Arch, "arch", "", "reproduce nfd-worker on this architecture: "+strings.Join(discover.SupportedArchs(), " or ")+" (default: this machine's)")
	rest, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	if len(rest) > 0 {
		return usageError(fs, "unexpected arguments %q", rest)
	}
	o.Sources, o.SkipSources = splitList(*sources), splitList(*skip)
	if o.Arch != "" && !slices.Contains(discover.SupportedArchs(), o.Arch) {
		return usageError(fs, "unknown --arch %q: want %s", o.Arch, strings.Join(discover.SupportedArchs(), " or "))
	}
	if err := discover.ValidNFDVersion(o.NFDVersion); err != nil {
		return usageError(fs, "--nfd-version: %v", err)
	}
	for _, name := range append(slices.Clone(o.Sources), o.SkipSources...) {
		if !slices.Contains(discover.SourceNames(), name) {
			return usageError(fs, "unknown source %q: want %s", name, strings.Join(discover.SourceNames(), ", "))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), fn.DiscoverTimeout)
	defer cancel()
	nf, found, err := modes.Discover(ctx, o)
	for _, d := range found {
		complain(stderr, "%s: %s", spoken(d.Severity), d.Describe())
	}
	if err != nil {
		complain(stderr, "nfd-fn discover: %v", err)
		return 1
	}
	out, err := yaml.Marshal(nf)
	if err != nil {
		complain(stderr, "nfd-fn discover: encoding: %v", err)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		complain(stderr, "nfd-fn discover: writing: %v", err)
		return 1
	}
	return 0
}

// splitList splits a comma-separated flag value, spaces trimmed and
// empty entries dropped; nil when nothing is left (every source).
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// spoken is how a severity is said on stderr: notes are info findings.
func spoken(s diag.Severity) string {
	if s == diag.Info {
		return "note"
	}
	return string(s)
}
