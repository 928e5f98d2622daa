package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/config"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/version"
)

const discoverUsage = `Usage: nfd-fn discover [flags]

Prints the NodeFeature nfd-worker v0.19.0 (or the release --nfd-version
names) would publish for this host (or for the host root given), named
after the node. Nothing is written to the host; no hook is run.

Flags:
`

// runDiscover implements `nfd-fn discover`: print the NodeFeature that
// nfd-worker would publish for this host.
func runDiscover(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("discover", discoverUsage, stderr)
	var o config.DiscoverOptions
	fs.StringVar(&o.NodeName, "node-name", "", "node name (default: $NODE_NAME, else the host name)")
	fs.StringVar(&o.Namespace, "namespace", discover.DefaultNamespace, "namespace of the NodeFeature")
	fs.StringVar(&o.HostRoot, "host-root", "/", "read sys/, proc/, etc/, boot/, lib/, usr/lib/ and features.d under this directory")
	fs.StringVar(&o.FeaturesDir, "features-dir", "", "features.d directory (default: <host-root>/etc/kubernetes/node-feature-discovery/features.d)")
	sources := fs.String("sources", "", "comma-separated sources to run (default: all of "+strings.Join(discover.SourceNames(), ", ")+")")
	skip := fs.String("skip-sources", "", "comma-separated sources to skip")
	fs.StringVar(&o.WorkerConfig, "config", "", "nfd-worker configuration file (core and sources settings, custom rules)")
	fs.StringVar(&o.NFDVersion, "nfd-version", discover.DefaultNFDVersion, "reproduce this nfd-worker release: "+strings.Join(discover.SupportedNFDVersions(), ", "))
	fs.StringVar(&o.Arch, "arch", "", "reproduce nfd-worker on this architecture: "+strings.Join(discover.SupportedArchs(), " or ")+" (default: this machine's)")
	rest, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	if len(rest) > 0 {
		return usageError(fs, "unexpected arguments %q", rest)
	}
	o.Sources, o.SkipSources = config.SplitList(*sources), config.SplitList(*skip)
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
	nf, warnings, err := hostDiscoverTo(ctx, o, stderr, false)
	for _, w := range warnings {
		complain(stderr, "warning: %s", w.Describe())
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

// hostDiscover is the fn.DiscoverFunc of the KRM mode discover (kpt fn
// eval --exec nfd-fn -- mode=discover): its paths come from input nfd-fn
// did not write, so discovery is confined to the host root (the worker
// configuration and features.d paths are read below it, and no file's
// contents reach the warnings); the host-name fallback for the node name
// comes back as a warning.
func hostDiscover(ctx context.Context, o config.DiscoverOptions) (*api.NodeFeature, diag.List, error) {
	var note strings.Builder
	nf, warnings, err := hostDiscoverTo(ctx, o, &note, true)
	if s := strings.TrimSpace(note.String()); s != "" {
		warnings = append(diag.List{{Severity: diag.Warning, Message: strings.TrimPrefix(s, "note: ")}}, warnings...)
	}
	return nf, warnings, err
}

// hostDiscoverTo runs discovery with the options, resolving the node name
// (noted on notes when it falls back to the host name). With confine, the
// worker configuration and features.d paths name files below the host
// root; without, files of this machine.
func hostDiscoverTo(ctx context.Context, o config.DiscoverOptions, notes io.Writer, confine bool) (*api.NodeFeature, diag.List, error) {
	opts := discover.Options{HostRoot: o.HostRoot, FeaturesDir: o.FeaturesDir, Namespace: o.Namespace,
		Sources: o.Sources, SkipSources: o.SkipSources, Arch: o.Arch, NFDVersion: o.NFDVersion, Version: version.Version,
		WorkerConfigPath: o.WorkerConfig, Confine: confine, NodeName: resolveNodeName(o.NodeName, notes)}
	nf, warnings, err := discover.Discover(ctx, opts)
	return nf, foldDMI(warnings), err
}

// dmiWarning is the system source's warning for one DMI entry it could
// not read; a host without /sys/devices/virtual/dmi/id has seventeen.
var dmiWarning = regexp.MustCompile(`^failed to get DMI entry ([A-Za-z0-9_]+): (.*)$`)

// foldDMI folds the system source's DMI warnings that differ only in the
// entry's name into one, where the first stood: "system: failed to get 17
// DMI entries (bios_date, ...): reading "/sys/.../id/*": ...".
func foldDMI(ws diag.List) diag.List {
	type group struct {
		at    int
		names []string
	}
	groups := map[string]*group{}
	var out diag.List
	for _, w := range ws {
		sub := dmiWarning.FindStringSubmatch(w.Message)
		if w.Field != "system" || sub == nil {
			out = append(out, w)
			continue
		}
		rest := strings.ReplaceAll(sub[2], sub[1], "*")
		if g := groups[rest]; g != nil {
			g.names = append(g.names, sub[1])
			continue
		}
		groups[rest] = &group{at: len(out), names: []string{sub[1]}}
		out = append(out, w)
	}
	for rest, g := range groups {
		if len(g.names) > 1 {
			out[g.at].Message = fmt.Sprintf("failed to get %d DMI entries (%s): %s", len(g.names), strings.Join(g.names, ", "), rest)
		}
	}
	return out
}

// resolveNodeName follows nfd-worker: NODE_NAME, else the host name.
func resolveNodeName(flagValue string, notes io.Writer) string {
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
	complain(notes, "note: NODE_NAME is not set; using the host name %q as the node name", h)
	return h
}
