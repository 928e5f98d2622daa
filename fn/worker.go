package fn

import (
	"go.yaml.in/yaml/v3"

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
		wc, err := lint.ReadWorkerConfigMap(itemTree(it), itemRef(it), it.File)
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

// itemTree is an item's object, parsed if it was read lean; nil when it
// does not parse.
func itemTree(it *krm.Item) *yaml.Node {
	n := it.Node
	if n == nil && it.Raw != nil {
		n, _ = it.ParseTree()
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	return n
}
