package corpus

import (
	"strings"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// MetadataErrors are the errors nfd-fn reports in an object's metadata:
// pkg/objects' for a name or namespace, and pkg/master's for a
// NodeFeature's node-name label that is no valid node name (NFD048).
// Other labels and annotations nfd-fn does not judge: the corpus holds
// no object the API server refuses for them, and this test fails when
// one comes.
func MetadataErrors(node *yaml.Node) []string {
	d := objects.Decode(node)
	var out []string
	for _, e := range d.Errs {
		if e.Path == "metadata" || strings.HasPrefix(e.Path, "metadata.") {
			out = append(out, e.Error())
		}
	}
	if nf, ok := d.Obj.(*api.NodeFeature); ok {
		if name, set := nf.Metadata.Labels[api.NodeNameLabel]; set {
			if why := objects.InvalidName("Node", name); why != "" {
				out = append(out, "metadata.labels: node-name label: "+why)
			}
		}
	}
	return out
}
