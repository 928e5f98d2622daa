package modes

import (
	"context"
	"fmt"
	"os"

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
// contents reach the warnings). A ResourceList's results have no notes
// for discover: the host-name fallback for the node name is a warning
// there (docs/discover.md).
func HostDiscover(ctx context.Context, o config.DiscoverOptions) (*api.NodeFeature, diag.List, error) {
	opts := discover.Options{HostRoot: o.HostRoot, FeaturesDir: o.FeaturesDir, Namespace: o.Namespace,
		Sources: o.Sources, SkipSources: o.SkipSources, Arch: o.Arch, NFDVersion: o.NFDVersion,
		WorkerConfigPath: o.WorkerConfig, Confine: true, NodeName: o.NodeName}
	nf, found, err := Discover(ctx, opts)
	for i := range found {
		if found[i].Check == NodeNameFromHost {
			found[i].Severity = diag.Warning
		}
	}
	return nf, found, err
}

// Discover is mode discover: the NodeFeature nfd-worker would publish
// for the host opts name, as this nfd-fn version (opts.Version), and what
// was found on the way: the sources' warnings and, first, a note when
// the node name is the host name's. The node name follows nfd-worker
// when opts gives none: NODE_NAME, else the host name.
func Discover(ctx context.Context, opts discover.Options) (*api.NodeFeature, diag.List, error) {
	opts.Version = version.Version
	var found diag.List
	if opts.NodeName == "" {
		var note *diag.Diagnostic
		opts.NodeName, note = defaultNodeName()
		if note != nil {
			found = append(found, *note)
		}
	}
	nf, warnings, err := discover.Discover(ctx, opts)
	return nf, append(found, warnings...), err
}

// NodeNameFromHost is the check of Discover's note that the node name
// is the host name, NODE_NAME being unset.
const NodeNameFromHost = "node-name-from-host"

// defaultNodeName follows nfd-worker: NODE_NAME, else the host name,
// with a note saying so; "" when neither is known.
func defaultNodeName() (string, *diag.Diagnostic) {
	if n := os.Getenv("NODE_NAME"); n != "" {
		return n, nil
	}
	h, err := os.Hostname()
	if err != nil {
		return "", nil
	}
	return h, &diag.Diagnostic{Severity: diag.Info, Check: NodeNameFromHost,
		Message: fmt.Sprintf("NODE_NAME is not set; using the host name %q as the node name", h)}
}
