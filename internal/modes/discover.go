package modes

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/config"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// HostDiscover is the fn.DiscoverFunc of the KRM mode discover (kpt fn
// eval --exec nfd-fn -- mode=discover): its paths come from input nfd-fn
// did not write, so discovery is confined to the host root (the worker
// configuration and features.d paths are read below it, and no file's
// contents reach the warnings); the host-name fallback for the node name
// comes back as a warning.
func HostDiscover(ctx context.Context, o config.DiscoverOptions) (*api.NodeFeature, diag.List, error) {
	var note strings.Builder
	opts := discover.Options{HostRoot: o.HostRoot, FeaturesDir: o.FeaturesDir, Namespace: o.Namespace,
		Sources: o.Sources, SkipSources: o.SkipSources, Arch: o.Arch, NFDVersion: o.NFDVersion,
		WorkerConfigPath: o.WorkerConfig, Confine: true, NodeName: o.NodeName}
	nf, warnings, err := Discover(ctx, opts, &note)
	if s := strings.TrimSpace(note.String()); s != "" {
		warnings = append(diag.List{{Severity: diag.Warning, Message: strings.TrimPrefix(s, "note: ")}}, warnings...)
	}
	return nf, warnings, err
}

// Discover is mode discover: the NodeFeature nfd-worker would publish
// for the host opts name, as this nfd-fn version (opts.Version). The node
// name follows nfd-worker when opts gives none: NODE_NAME, else the host
// name (noted on notes). The system source's DMI warnings that differ
// only in the entry are folded into one.
func Discover(ctx context.Context, opts discover.Options, notes io.Writer) (*api.NodeFeature, diag.List, error) {
	opts.Version = version.Version
	opts.NodeName = resolveNodeName(opts.NodeName, notes)
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
