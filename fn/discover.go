package fn

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// NodeFeaturePathPrefix is the directory, relative to the package, that a
// discovered NodeFeature not already in the package is written to:
// nodefeatures/<node-name>.yaml.
const NodeFeaturePathPrefix = "nodefeatures/"

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
}

// DiscoverFunc inspects the host as the options say, within ctx, and
// returns its NodeFeature and any warnings. The command line supplies it,
// so that fn does not decide where the host is. The options come from the
// functionConfig, input nfd-fn did not write: the function must keep every
// path they name inside the host root and file contents out of warnings
// and errors.
type DiscoverFunc func(ctx context.Context, o DiscoverOptions) (*api.NodeFeature, []string, error)

// DiscoverTimeout bounds a whole discovery run, in KRM mode and on the
// command line; each source has a shorter deadline of its own
// (discover.DefaultSourceTimeout).
const DiscoverTimeout = time.Minute

// resolveDiscover validates the mode discover settings into s.Discover.
// Outside mode discover they are ignored, with a warning.
func (fc *FunctionConfig) resolveDiscover(s *Settings) diag.List {
	s.Discover = DiscoverOptions{HostRoot: fc.HostRoot, NodeName: fc.NodeName, Namespace: fc.NfdNamespace,
		FeaturesDir: fc.FeaturesDir, Sources: fc.Sources, SkipSources: fc.SkipSources,
		WorkerConfig: fc.WorkerConfig, Arch: fc.Arch}
	var problems diag.List
	if s.Mode != "discover" {
		for _, k := range fc.discoverKeysSet() {
			problems = append(problems, cfgWarning(fc.field(k), fmt.Sprintf("%s is a mode discover setting; mode %s ignores it", k, s.Mode)))
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

// discoverList appends the host's NodeFeature to the items, or replaces the
// NodeFeature of the same name and namespace (the object nfd-worker would
// update). A new item is written to nodefeatures/<node>.yaml; a replaced
// one keeps the file, index and id annotations of the item it replaces.
func discoverList(rl *krm.ResourceList, discoverFn DiscoverFunc, r *report) {
	settings, problems := loadConfig(rl.FunctionConfig)
	if problems.HasErrors() {
		r.add(diag.Info, nil, "", "discover: not run, the functionConfig has errors")
		return
	}
	if discoverFn == nil {
		r.add(diag.Error, nil, "", "mode discover is not available here: run nfd-fn on the host to snapshot (kpt fn eval --exec nfd-fn)")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), DiscoverTimeout)
	defer cancel()
	nf, warnings, err := discoverFn(ctx, settings.Discover)
	for _, w := range warnings {
		r.add(diag.Warning, nil, "", "discover: "+w)
	}
	if err != nil {
		r.add(diag.Error, nil, "", fmt.Sprintf("discover: %v", err))
		return
	}
	old := findNodeFeature(rl, nf)
	var oldItem *krm.Item
	if old >= 0 {
		oldItem = rl.Items[old]
	}
	it, err := nodeFeatureItem(nf, oldItem)
	if err != nil {
		r.add(diag.Error, nil, "", fmt.Sprintf("discover: encoding the NodeFeature: %v", err))
		return
	}
	if old < 0 {
		rl.Items = append(rl.Items, it)
		return
	}
	rl.Items[old] = it
}

// findNodeFeature returns the index of the item with nf's apiVersion,
// kind, name and namespace, or -1.
func findNodeFeature(rl *krm.ResourceList, nf *api.NodeFeature) int {
	for i, it := range rl.Items {
		if it.Kind == nf.Kind && it.APIVersion == nf.APIVersion && it.Name == nf.Metadata.Name && it.Namespace == nf.Metadata.Namespace {
			return i
		}
	}
	return -1
}

// nodeFeatureItem encodes nf as a new item carrying the bookkeeping
// annotations of old, or path annotations for nodefeatures/<name>.yaml
// when old is nil.
func nodeFeatureItem(nf *api.NodeFeature, old *krm.Item) (*krm.Item, error) {
	ann := map[string]string{}
	for k, v := range nf.Metadata.Annotations {
		ann[k] = v
	}
	if old == nil {
		path := NodeFeaturePathPrefix + nf.Metadata.Name + ".yaml"
		ann[kioutil.PathAnnotation], ann[kioutil.IndexAnnotation] = path, "0"
		ann[kioutil.LegacyPathAnnotation], ann[kioutil.LegacyIndexAnnotation] = path, "0"
	} else {
		for k, v := range bookkeeping(old) {
			ann[k] = v
		}
	}
	out := *nf
	out.Metadata.Annotations = ann
	return encodeItem(&out)
}

// bookkeeping returns the annotations kpt and kyaml use to track where an
// item came from (file, index, id).
func bookkeeping(it *krm.Item) map[string]string {
	n := it.Tree()
	out := map[string]string{}
	for k, v := range krm.StringMap(krm.MapAt(krm.MapAt(n, "metadata"), "annotations")) {
		if isBookkeeping(k) {
			out[k] = v
		}
	}
	if len(out) == 0 && it.File != "" {
		idx := fmt.Sprint(it.Index)
		out[kioutil.PathAnnotation], out[kioutil.IndexAnnotation] = it.File, idx
		out[kioutil.LegacyPathAnnotation], out[kioutil.LegacyIndexAnnotation] = it.File, idx
	}
	return out
}

// isBookkeeping reports whether an annotation is kpt's or kyaml's record of
// where an item came from.
func isBookkeeping(key string) bool {
	for _, p := range []string{"internal.config.kubernetes.io/", "config.kubernetes.io/", "config.k8s.io/"} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// encodeItem marshals an object into a new, changed item.
func encodeItem(obj any) (*krm.Item, error) {
	b, err := sigsyaml.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	it := &krm.Item{Changed: true}
	it.SetNode(krm.DocContent(&doc))
	return it, nil
}
