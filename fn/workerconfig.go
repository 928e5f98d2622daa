package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// listWorkerConfig is the nfd-worker configuration a ResourceList holds:
// the first ConfigMap with data["nfd-worker.conf"]
// (lint.ReadWorkerConfigMap), as NFD's Helm chart and kustomize deployment
// make it; nil when there is none. One that cannot be read is an error
// about its item, among the returned problems.
func listWorkerConfig(rl *krm.ResourceList) (*lint.WorkerConfig, diag.List) {
	var problems diag.List
	for _, it := range rl.Items {
		if it.Kind != "ConfigMap" {
			continue
		}
		wc, err := lint.ReadWorkerConfigMap(inputs.ItemTree(it), inputs.ItemRef(it), it.File)
		if err != nil {
			field := "data[" + lint.WorkerConfigKey + "]"
			problems = append(problems, inputs.AboutItem(it, field, diag.Diagnostic{Severity: diag.Error, Message: err.Error()}))
			continue
		}
		if wc != nil {
			return wc, problems
		}
	}
	return nil, problems
}
