package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// DiscoverOptions are the mode discover settings of the functionConfig.
// Empty fields mean the DiscoverFunc's defaults.
type DiscoverOptions struct {
	// HostRoot is the directory read instead of / (key hostRoot); every
	// other path below is read inside it.
	HostRoot string
	// NodeName names the node (key nodeName); by default $NODE_NAME, else
	// the host name.
	NodeName string
	// Namespace is the NodeFeature's namespace (key nfdNamespace).
	Namespace string
	// FeaturesDir is the features.d directory (key featuresDir), below
	// HostRoot in KRM mode.
	FeaturesDir string
	// Sources and SkipSources select sources (keys sources, skipSources).
	Sources, SkipSources []string
	// WorkerConfig is the path of an nfd-worker configuration file (key
	// workerConfig), below HostRoot in KRM mode.
	WorkerConfig string
	// Arch is the architecture whose nfd-worker is reproduced (key arch).
	Arch string
	// NFDVersion is the nfd-worker release reproduced (key nfdVersion):
	// v0.17.x, v0.18.x or v0.19.0 (the default).
	NFDVersion string
}

// resolveDiscover validates the mode discover settings into s.Discover.
// Outside mode discover they are ignored, with a warning.
func (fc *FunctionConfig) resolveDiscover(s *Settings) diag.List {
	s.Discover = DiscoverOptions{HostRoot: fc.HostRoot, NodeName: fc.NodeName, Namespace: fc.NfdNamespace,
		FeaturesDir: fc.FeaturesDir, Sources: fc.Sources, SkipSources: fc.SkipSources,
		WorkerConfig: fc.WorkerConfig, Arch: fc.Arch, NFDVersion: fc.NfdVersion}
	var problems diag.List
	if s.Mode != "discover" {
		for _, k := range fc.discoverKeysSet() {
			msg := fmt.Sprintf("%s is a mode discover setting; mode %s ignores it", k, s.Mode)
			if k == "workerConfig" {
				msg += ` (render and validate read the worker configuration from the input's ConfigMap with data["nfd-worker.conf"]; workerConfigMap names the one about to roll out)`
			}
			problems = append(problems, cfgWarning(fc.field(k), msg))
		}
		return problems
	}
	for key, names := range map[string][]string{"sources": fc.Sources, "skipSources": fc.SkipSources} {
		for _, n := range names {
			if !slices.Contains(discover.SourceNames(), n) {
				problems = append(problems, cfgError(fc.field(key), fmt.Sprintf("unknown source %q: known sources are %s", n, strings.Join(discover.SourceNames(), ", "))))
			}
		}
	}
	if fc.Arch != "" && !slices.Contains(discover.SupportedArchs(), fc.Arch) {
		problems = append(problems, cfgError(fc.field("arch"), fmt.Sprintf("unsupported arch %q: want %s", fc.Arch, strings.Join(discover.SupportedArchs(), " or "))))
	}
	if err := discover.ValidNFDVersion(fc.NfdVersion); err != nil {
		problems = append(problems, cfgError(fc.field("nfdVersion"), err.Error()))
	}
	if fc.NodeName != "" {
		if why := objects.InvalidName("Node", fc.NodeName); why != "" {
			problems = append(problems, cfgError(fc.field("nodeName"), fmt.Sprintf("invalid node name %s: %s", objects.ShowName(fc.NodeName), why)))
		}
	}
	sortProblems(problems)
	return problems
}

// discoverKeysSet lists the mode discover keys that are set, in
// declaration order.
func (fc *FunctionConfig) discoverKeysSet() []string {
	var out []string
	for _, k := range configKeys {
		if k.mode == "discover" && k.isSet(fc) {
			out = append(out, k.name)
		}
	}
	return out
}

// sortProblems orders problems by field, then message, for stable output.
func sortProblems(ps diag.List) {
	slices.SortFunc(ps, func(a, b diag.Diagnostic) int {
		if c := strings.Compare(a.Field, b.Field); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}
