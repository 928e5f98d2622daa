package inputs

import (
	"fmt"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// NamedWorkerConfig is the nfd-worker configuration held by the ConfigMap
// among the list's items that ref names ("name", or "namespace/name" when
// several share the name), under data["nfd-worker.conf"] (the
// functionConfig's workerConfigMap). A ConfigMap that is missing,
// ambiguous, without that key or unreadable is an error naming it.
func NamedWorkerConfig(rl *krm.ResourceList, ref string) (*lint.WorkerConfig, error) {
	ns, name, namespaced := strings.Cut(ref, "/")
	if !namespaced {
		ns, name = "", ref
	}
	var found []*krm.Item
	for _, it := range rl.Items {
		if it.Kind == "ConfigMap" && it.Name == name && (!namespaced || it.Namespace == ns) {
			found = append(found, it)
		}
	}
	switch {
	case len(found) == 0:
		return nil, fmt.Errorf("no ConfigMap %s among the items", ref)
	case len(found) > 1:
		return nil, fmt.Errorf("%d ConfigMaps named %s among the items: name one as namespace/name", len(found), name)
	}
	it := found[0]
	where := it.File // as --worker-config names its file
	if where == "" {
		where = "ConfigMap " + ref
	}
	wc, err := lint.ReadWorkerConfigMap(ItemTree(it), ItemRef(it), where)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if wc == nil {
		return nil, fmt.Errorf("%s has no data[%q]", where, lint.WorkerConfigKey)
	}
	return wc, nil
}
