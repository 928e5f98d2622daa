package fn

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// readSet builds the object set of a ResourceList (inputs.AddItems),
// reporting the items that cannot be read, then settles the NFD release
// rendered as (into s) and has that release's API server admit the rules
// and groups (inputs.AdmitList).
func readSet(rl *krm.ResourceList, s *config.Settings, r *report) *objects.Set {
	set := s.NewSet()
	r.extend(inputs.AddItems(set, rl))
	problems, found := inputs.AdmitList(rl, set, s)
	r.config(rl.FunctionConfig, problems)
	r.extend(found)
	useWorkerConfig(rl, s, r)
	return set
}

// useWorkerConfig recomputes each node's own labels with the worker
// configuration given (config.Settings.WorkerConfig), for the worker of
// the release settled on; a configuration nfd-worker would refuse is an
// error about the functionConfig.
func useWorkerConfig(rl *krm.ResourceList, s *config.Settings, r *report) {
	if s.WorkerConfig == nil {
		return
	}
	l, warnings, err := discover.NewLabeler(s.WorkerConfig, s.Options.NFDRelease().Engine.String())
	if err != nil {
		r.config(rl.FunctionConfig, diag.List{{Severity: diag.Error, Check: "config", Field: workerConfigField(s),
			Message: fmt.Sprintf("%s: %v", s.WorkerConfigFile, err)}})
		return
	}
	var problems diag.List
	for _, w := range warnings {
		problems = append(problems, diag.Diagnostic{Severity: diag.Warning, Check: "config", Field: workerConfigField(s), Message: s.WorkerConfigFile + ": " + w})
	}
	r.config(rl.FunctionConfig, problems)
	s.Options.WorkerLabels = l
}
