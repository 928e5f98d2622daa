package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// configuredWorker is the nfd-worker configuration about to roll out that
// render and validate use: the one given (--worker-config), else the
// ConfigMap among the items the functionConfig's workerConfigMap names
// (kpt and kustomize have no flags). One that cannot be found or read is
// an error about the functionConfig, and none is used.
func configuredWorker(rl *krm.ResourceList, s *config.Settings, given *lint.WorkerConfig) (*lint.WorkerConfig, diag.List) {
	if given != nil || s.WorkerConfigMap == "" {
		s.WorkerConfigField = ""
		return given, nil
	}
	wc, err := inputs.NamedWorkerConfig(rl, s.WorkerConfigMap)
	if err != nil {
		return nil, diag.List{{Severity: diag.Error, Check: "config", Field: s.WorkerConfigField, Message: "workerConfigMap: " + err.Error()}}
	}
	return wc, nil
}

// workerConfigField is where the worker configuration in use was named:
// the functionConfig's workerConfigMap, or the --worker-config flag.
func workerConfigField(s *config.Settings) string {
	if s.WorkerConfigField != "" {
		return s.WorkerConfigField
	}
	return "--worker-config"
}
