package modes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/config"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// checkLabelGone is the check of a workload selecting a label the worker
// configuration given no longer publishes.
const checkLabelGone = "worker-label-gone"

// WorkerLabelsGone checks the worker configuration wc given to validate
// (--worker-config) against the workloads: one selecting a label the
// NodeFeatures of set publish and wc no longer would is a warning naming
// both (NFD311); and against the rules and groups: one reading a feature
// they publish and wc no longer would is one too (NFD313, readingGone). workloads is called only when some label is gone, so a
// run that changes nothing reads no workload. Both drivers call it: over
// files (ValidateFiles) and over a ResourceList (fn's mode validate).
//
// The configuration's own problems are lint's to report (NFD055, NFD058):
// one nfd-worker would refuse to start with publishes nothing to compare,
// and is not checked here.
func WorkerLabelsGone(set *objects.Set, s *config.Settings, wc *lint.WorkerConfig, workloads func() ([]*workload.Workload, error)) (diag.List, error) {
	l, _, err := discover.NewLabeler(wc.Text, s.Options.NFDRelease().Engine.String())
	if err != nil {
		return nil, nil
	}
	gone, features, problems := goneLabels(set, l)
	problems = append(problems, readingGone(set, l, features, wc.File)...)
	if len(gone) == 0 {
		return problems, nil
	}
	ws, err := workloads()
	if err != nil {
		return nil, err
	}
	return append(problems, selectingGone(ws, gone, wc.File)...), nil
}

// fileWorkloads are the workloads among f's files, read into a set of
// their own (closed with f).
func (f *Files) fileWorkloads() ([]*workload.Workload, error) {
	ws, _, err := f.reader(&objects.Set{}).Workloads(f.Paths)
	return ws, err
}

// goneLabels are the labels the worker's own NodeFeatures of set publish
// that l no longer would, each with the nodes it leaves (recomputed as
// plan --worker-config does), and likewise the features
// (withheldFeatures).
func goneLabels(set *objects.Set, l *discover.Labeler) (map[string][]string, map[string][]string, diag.List) {
	gone, features := map[string][]string{}, map[string][]string{}
	var problems diag.List
	for i := range set.Features {
		o := &set.Features[i]
		node := o.Obj.Metadata.Labels[api.NodeNameLabel]
		if !o.Used() || node == "" || o.Obj.Metadata.Name != node {
			continue
		}
		spec := &o.Obj.Spec
		if o.Lean != nil {
			var err error
			if spec, err = o.Lean.Load(nil); err != nil {
				problems = append(problems, diag.Diagnostic{Severity: diag.Error, Check: "yaml", Object: objects.FeatureRef(o.Obj), Message: err.Error()})
				continue
			}
		}
		withheldFeatures(&spec.Features, l, node, features)
		now, _ := l.Publish(spec)
		for k := range spec.Labels {
			if _, ok := now.Labels[k]; !ok {
				name := k
				if !strings.Contains(k, "/") {
					name = api.FeatureLabelNs + "/" + k
				}
				gone[name] = append(gone[name], node)
			}
		}
	}
	return gone, features, problems
}

// selectingGone warns about each workload whose node selector or required
// node affinity selects a label in gone, naming the label, the worker
// configuration (config) and the nodes it leaves.
func selectingGone(ws []*workload.Workload, gone map[string][]string, config string) diag.List {
	var out diag.List
	for _, w := range ws {
		for _, key := range selectedKeys(w) {
			nodes, ok := gone[key]
			if !ok {
				continue
			}
			slices.Sort(nodes)
			out = append(out, diag.Diagnostic{Severity: diag.Warning, Check: checkLabelGone, Object: w.Ref(), Pos: w.Pos, Nodes: nodes,
				Message: fmt.Sprintf("selects label %s, which nfd-worker no longer publishes with the worker configuration %s (gone from %s): its pods lose those nodes (nfd-fn plan --worker-config %s shows the rename)",
					key, config, diag.DescribeNodes(nodes), config)})
		}
	}
	return out
}

// selectedKeys are the label keys a workload's pod template requires:
// nodeSelector's and those of required node affinity's match expressions.
func selectedKeys(w *workload.Workload) []string {
	if w.Pod == nil {
		return nil
	}
	var keys []string
	for k := range w.Pod.Spec.NodeSelector {
		keys = append(keys, k)
	}
	if a := w.Pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			for _, e := range t.MatchExpressions {
				keys = append(keys, e.Key)
			}
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
