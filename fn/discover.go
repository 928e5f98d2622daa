package fn

import (
	"fmt"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// DiscoverFunc inspects the host and returns its NodeFeature and any
// warnings. The command line supplies it, so that fn does not decide where
// the host is.
type DiscoverFunc func() (*api.NodeFeature, []string, error)

// discoverList appends the host's NodeFeature to the items, replacing an
// item with the same name and namespace.
func discoverList(rl *resourceList, discover DiscoverFunc, r *results) {
	if discover == nil {
		r.add(engine.SeverityError, nil, "", "mode discover is not available here: run nfd-fn on the host to snapshot (kpt fn eval --exec nfd-fn)")
		return
	}
	nf, warnings, err := discover()
	for _, w := range warnings {
		r.add(engine.SeverityWarning, nil, "", "discover: "+w)
	}
	if err != nil {
		r.add(engine.SeverityError, nil, "", fmt.Sprintf("discover: %v", err))
		return
	}
	path := "nodefeatures/" + nf.Metadata.Name + ".yaml"
	if nf.Metadata.Annotations == nil {
		nf.Metadata.Annotations = map[string]string{}
	}
	nf.Metadata.Annotations[pathAnnotation] = path
	nf.Metadata.Annotations[legacyPathAnnotation] = path
	b, err := sigsyaml.Marshal(nf)
	var doc yaml.Node
	if err == nil {
		err = yaml.Unmarshal(b, &doc)
	}
	if err != nil {
		r.add(engine.SeverityError, nil, "", fmt.Sprintf("discover: encoding the NodeFeature: %v", err))
		return
	}
	it := &item{changed: true}
	it.setNode(docContent(&doc))
	for i, old := range rl.items {
		if old.kind == api.KindNodeFeature && old.name == it.name && old.namespace == it.namespace {
			rl.items[i] = it
			return
		}
	}
	rl.items = append(rl.items, it)
}
