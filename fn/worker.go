package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// inputWorkerConfig is the nfd-worker configuration the input holds: the
// first ConfigMap with data["nfd-worker.conf"] (lint.ReadWorkerConfigMap),
// as NFD's Helm chart and kustomize deployment make it; nil when there is
// none. One that cannot be read is an error result on its item.
func inputWorkerConfig(rl *krm.ResourceList, r *report) *lint.WorkerConfig {
	for _, it := range rl.Items {
		if it.Kind != "ConfigMap" {
			continue
		}
		wc, err := lint.ReadWorkerConfigMap(inputs.ItemTree(it), inputs.ItemRef(it), it.File)
		if err != nil {
			r.add(diag.Error, it, "data["+lint.WorkerConfigKey+"]", err.Error())
			continue
		}
		if wc != nil {
			return wc
		}
	}
	return nil
}
