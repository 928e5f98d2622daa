package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// readSet builds the object set of a ResourceList (inputs.AddItems),
// reporting the items that cannot be read, then settles the NFD release
// rendered as (into s) and has that release's API server admit the rules
// and groups (inputs.AdmitList).
func readSet(rl *krm.ResourceList, s *config.Settings, r *report) *objects.Set {
	set := s.NewSet()
	r.extend(inputs.AddItems(set, rl, nil))
	problems, found := inputs.AdmitList(rl, set, s)
	r.config(rl.FunctionConfig, problems)
	r.extend(found)
	return set
}
