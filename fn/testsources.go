package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// testSources runs the suites (the RuleTest items) under kpt: those whose
// inputs and settings resolve to the same items and settings share one
// render, of just those items; a suite whose paths are not among the
// items, or whose config has errors, is not run and its problems are
// reported on it. base are the functionConfig's problems, findings of
// the suites that render with its settings; over gives a RuleTest's own
// config what the command line sets.
func testSources(rl *krm.ResourceList, s config.Settings, over func(*config.Settings) diag.List, base diag.List, suites []*ruletest.Suite, items []*krm.Item, r *report) {
	srcs := map[string]*listSource{}
	groups := map[string][]int{}
	var keys []string
	for i, suite := range suites {
		src := suiteListSource(rl, suite, items[i])
		r.extend(src.Problems)
		if src.Problems.HasErrors() {
			continue
		}
		if _, seen := groups[src.Key]; !seen {
			keys = append(keys, src.Key)
			srcs[src.Key] = &src
		}
		groups[src.Key] = append(groups[src.Key], i)
	}
	for _, k := range keys {
		var gs []*ruletest.Suite
		var gi []*krm.Item
		for _, i := range groups[k] {
			gs, gi = append(gs, suites[i]), append(gi, items[i])
		}
		r.extend(testSource(rl, s, over, base, srcs[k], gs, gi))
	}
}

// testSource renders src's items with its settings (over s, the
// functionConfig's; a config of its own gets over's) and checks the
// suites against that render.
func testSource(rl *krm.ResourceList, s config.Settings, over func(*config.Settings) diag.List, base diag.List, src *listSource, suites []*ruletest.Suite, items []*krm.Item) diag.List {
	var found diag.List
	if src.Settings == nil {
		found = append(found, base...)
	}
	sub := &krm.ResourceList{Items: src.Items, FunctionConfig: rl.FunctionConfig, APIVersion: rl.APIVersion, Kind: rl.Kind}
	read := &report{}
	read.config(rl.FunctionConfig, src.Apply(&s, over))
	set := readSet(sub, &s, read)
	worker, more := src.Worker, diag.List(nil)
	if worker == nil {
		worker, more = listWorkerConfig(sub)
	}
	found = append(append(found, read.list...), more...)
	return modes.TestList(set, &s, found, worker, suites, suitesOn(items))
}
