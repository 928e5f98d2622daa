package fn

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// NodeFeaturePathPrefix is the directory, relative to the package, that a
// discovered NodeFeature not already in the package is written to:
// nodefeatures/<node-name>.yaml.
const NodeFeaturePathPrefix = "nodefeatures/"

// DiscoverFunc inspects the host as the options say, within ctx, and
// returns its NodeFeature and any warnings (diagnostics without an object). The command line supplies it,
// so that fn does not decide where the host is. The options come from the
// functionConfig, input nfd-fn did not write: the function must keep every
// path they name inside the host root and file contents out of warnings
// and errors.
type DiscoverFunc func(ctx context.Context, o config.DiscoverOptions) (*api.NodeFeature, diag.List, error)

// DiscoverTimeout bounds a whole discovery run, in KRM mode and on the
// command line; each source has a shorter deadline of its own
// (discover.DefaultSourceTimeout).
const DiscoverTimeout = time.Minute

// discoverList appends the host's NodeFeature to the items, or replaces the
// NodeFeature of the same name and namespace (the object nfd-worker would
// update). A new item is written to nodefeatures/<node>.yaml; a replaced
// one keeps the file, index and id annotations of the item it replaces.
// settings and configErrors are what process read from the functionConfig.
func discoverList(rl *krm.ResourceList, settings config.Settings, configErrors bool, discoverFn DiscoverFunc, r *report) {
	if configErrors {
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
		r.add(w.Severity, nil, "", "discover: "+w.Describe())
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
		maps.Copy(ann, krm.PlaceAnnotations(NodeFeaturePathPrefix+nf.Metadata.Name+".yaml", 0))
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
		out = krm.PlaceAnnotations(it.File, it.Index)
	}
	return out
}

// isBookkeeping reports whether an annotation is kpt's or kyaml's record of
// where an item came from: under config.kubernetes.io/ (the SDK's
// ConfigPrefix) or internal.config.kubernetes.io/ (kioutil's path, index,
// id and seqindent), or kyaml's legacy id.
func isBookkeeping(key string) bool {
	return strings.HasPrefix(key, sdk.ConfigPrefix) || strings.HasPrefix(key, "internal."+sdk.ConfigPrefix) || key == kioutil.LegacyIdAnnotation
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
