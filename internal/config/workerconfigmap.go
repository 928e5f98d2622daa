package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// workerConfigModes are the modes that read workerConfigMap.
var workerConfigModes = []string{"render", "validate"}

// resolveWorkerConfigMap checks workerConfigMap's form ("name" or
// "namespace/name") into s; the ConfigMap itself is an item, found once
// the items are read (inputs.NamedWorkerConfig). Other modes ignore it,
// with a warning.
func (fc *FunctionConfig) resolveWorkerConfigMap(s *Settings) diag.List {
	ref := strings.TrimSpace(fc.WorkerConfigMap)
	if ref == "" {
		return nil
	}
	field := fc.field("workerConfigMap")
	if !slices.Contains(workerConfigModes, s.Mode) {
		return diag.List{cfgWarning(field, fmt.Sprintf("workerConfigMap is read by modes %s; mode %s ignores it", strings.Join(workerConfigModes, " and "), s.Mode))}
	}
	ns, name, namespaced := strings.Cut(ref, "/")
	if !namespaced {
		ns, name = "", ref
	}
	if name == "" || strings.Contains(name, "/") || (namespaced && ns == "") {
		return diag.List{cfgError(field, fmt.Sprintf("workerConfigMap %q is not a ConfigMap's name nor namespace/name", fc.WorkerConfigMap))}
	}
	s.WorkerConfigMap, s.WorkerConfigField = ref, field
	return nil
}
