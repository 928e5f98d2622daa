package modes

import (
	"fmt"
	"maps"
	"slices"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/plan"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// planWorkers gives each side the nfd-worker configuration o names
// (--worker-config, --base-worker-config): the labels of each node's own
// NodeFeature are recomputed with it. bs are the before side's settings
// (nil: the head's). Each configuration's warnings are the plan's.
func planWorkers(in *plan.Input, bs *config.Settings, o PlanOptions) error {
	head, ds, err := WorkerLabeler("--worker-config", o.WorkerConfig, in.Options.NFDRelease())
	if err != nil {
		return err
	}
	in.Problems = append(in.Problems, ds...)
	var base *discover.Labeler
	if bs != nil {
		if base, ds, err = WorkerLabeler("--base-worker-config", o.BaseWorkerConfig, bs.Options.NFDRelease()); err != nil {
			return err
		}
		in.Problems = append(in.Problems, plan.BaseSide(ds)...)
	}
	if head != nil && base != nil {
		head.ClaimLabelsOf(base)
		base.ClaimLabelsOf(head)
	}
	if head != nil {
		in.Options.WorkerLabels = head
	}
	if base != nil {
		in.BaseOptions.WorkerLabels = base
	}
	in.Sides = append(in.Sides, workerSides(base, head, o)...)
	return nil
}

// WorkerLabeler reads the nfd-worker configuration at path (nfd-worker.conf,
// its ConfigMap, or Helm values with worker.config) for the worker of
// rel; nil for path "". Its warnings come back as diagnostics naming the
// flag; a configuration nfd-worker refuses is an error.
func WorkerLabeler(flag, path string, rel release.Release) (*discover.Labeler, diag.List, error) {
	wc, err := ReadWorkerConfig(path)
	if wc == nil || err != nil {
		return nil, nil, flagError(flag, err)
	}
	l, warnings, err := discover.NewLabeler(wc.Text, rel.Engine.String())
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s: %w", flag, path, err)
	}
	var ds diag.List
	for _, w := range warnings {
		ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Check: "config", Field: flag, Message: path + ": " + w})
	}
	return l, ds, nil
}

func flagError(flag string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", flag, err)
}

// workerSides say how the sides' worker configurations differ, setting by
// setting: "worker config: sources.pci.deviceLabelFields [vendor] →
// [vendor device]".
func workerSides(base, head *discover.Labeler, o PlanOptions) []string {
	switch {
	case base == nil && head == nil:
		return nil
	case base == nil:
		return []string{fmt.Sprintf("worker config: as the snapshot shows → %s", o.WorkerConfig)}
	case head == nil:
		return []string{fmt.Sprintf("worker config: %s → as the snapshot shows", o.BaseWorkerConfig)}
	}
	b, h := base.Settings(), head.Settings()
	var out []string
	for _, k := range slices.Sorted(maps.Keys(h)) {
		if b[k] != h[k] {
			out = append(out, fmt.Sprintf("worker config: %s %s → %s", k, b[k], h[k]))
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("worker config: %s → %s (no setting that shapes the labels differs)", o.BaseWorkerConfig, o.WorkerConfig))
	}
	return out
}
