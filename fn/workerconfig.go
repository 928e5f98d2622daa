package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// listWorkerConfig is the nfd-worker configuration a ResourceList holds
// (inputs.WorkerConfigIn: the first ConfigMap with
// data["nfd-worker.conf"]); one before it that cannot be read is an error
// about its item, among the returned problems.
func listWorkerConfig(rl *krm.ResourceList) (*lint.WorkerConfig, diag.List) {
	return inputs.WorkerConfigIn(rl.Items)
}
