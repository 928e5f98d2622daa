package discover

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// outcome is what one source of a phase produced.
type outcome[T any] struct {
	c *collector
	v T
}

// phase runs one function per source concurrently under a deadline and
// returns the outcomes of those that finished, by name. A source that
// panics finishes with only a warning. A source that does not finish is
// left running until its next read, which fails once the deadline passed.
func phase[T any](ctx context.Context, e *env, names []string, run func(*env, string, *collector) T) (map[string]outcome[T], error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.SourceTimeout)
	defer cancel()
	pe := e.within(ctx)
	type result struct {
		name string
		o    outcome[T]
	}
	done := make(chan result, len(names))
	for _, n := range names {
		go func() {
			r := result{name: n, o: outcome[T]{c: newCollector(n, e.opts.Confine)}}
			defer func() {
				if p := recover(); p != nil {
					r.o = outcome[T]{c: newCollector(n, e.opts.Confine)}
					r.o.c.warn("source failed: %v", p)
				}
				done <- r
			}()
			r.o.v = run(pe, n, r.o.c)
		}()
	}
	out := map[string]outcome[T]{}
	for range names {
		select {
		case r := <-done:
			out[r.name] = r.o
		case <-ctx.Done():
			return out, ctx.Err()
		}
	}
	return out, nil
}

// runFeatureSources runs the feature sources and merges their features
// in name order.
func runFeatureSources(ctx context.Context, e *env, names []string) (v1alpha1.Features, diag.List) {
	results, ctxErr := phase(ctx, e, names, func(e *env, n string, c *collector) struct{} {
		featureSourceFunc(n)(e, c)
		return struct{}{}
	})
	features := newFeatures()
	var warnings diag.List
	for _, n := range sortedCopy(names) {
		r, ok := results[n]
		if !ok {
			warnings = append(warnings, warning(n, fmt.Sprintf("did not finish: %v", ctxErr)))
			continue
		}
		mergeFeatures(&features, r.c.features)
		warnings = append(warnings, r.c.warnings...)
	}
	return features, warnings
}

// runLabelSources computes the NodeFeature spec.labels from the enabled
// label sources, merged in nfd-worker's order (priority, then name) so
// that later sources win.
func runLabelSources(ctx context.Context, e *env, names []string, f v1alpha1.Features) (map[string]string, diag.List) {
	results, ctxErr := phase(ctx, e, names, func(e *env, n string, c *collector) map[string]string {
		return sourceLabels(n, e, f, c)
	})
	labels := map[string]string{}
	var warnings diag.List
	for _, n := range labelOrder(names) {
		r, ok := results[n]
		if !ok {
			warnings = append(warnings, warning(n, fmt.Sprintf("labels did not finish: %v", ctxErr)))
			continue
		}
		publishSource(labels, n, r.v, e, r.c)
		warnings = append(warnings, r.c.warnings...)
	}
	return labels, warnings
}

// labelOrder is the label sources in the order nfd-worker merges their
// labels: by priority, then name, so that later sources win.
func labelOrder(names []string) []string {
	ordered := sortedCopy(names)
	sort.SliceStable(ordered, func(i, j int) bool { return labelPriority(ordered[i]) < labelPriority(ordered[j]) })
	return ordered
}

// publishSource adds the labels one source made to labels, named and
// filtered as nfd-worker publishes them (publishableLabel).
func publishSource(labels map[string]string, source string, made map[string]string, e *env, c *collector) {
	for _, k := range sortedKeys(made) {
		if name, ok := publishableLabel(source, k, made[k], e.cfg, c, e.checked); ok {
			labels[name] = made[k]
		}
	}
}

// sortedCopy returns names sorted, leaving names alone.
func sortedCopy(names []string) []string {
	out := append([]string(nil), names...)
	sort.Strings(out)
	return out
}

// removeNoPublishFeatures deletes the features core.noPublishFeatures
// names from the published object, after the labels were made from the
// full set, as nfd-worker v0.19 does: a pattern matches a
// "<source>.<feature>" key exactly, or as a prefix when it ends in "*". It
// returns the patterns that matched nothing. f gets maps of its own first:
// a label source that outlived its deadline may still be reading the old
// ones.
func removeNoPublishFeatures(f *v1alpha1.Features, patterns []string) []string {
	if len(patterns) == 0 {
		return nil
	}
	*f = copyFeatures(*f)
	matched := make([]bool, len(patterns))
	hit := func(key string) bool {
		any := false
		for i, p := range patterns {
			if prefix, ok := strings.CutSuffix(p, "*"); (ok && strings.HasPrefix(key, prefix)) || (!ok && key == p) {
				matched[i], any = true, true
			}
		}
		return any
	}
	deleteKeys(f.Flags, hit)
	deleteKeys(f.Attributes, hit)
	deleteKeys(f.Instances, hit)
	var out []string
	for i, p := range patterns {
		if !matched[i] {
			out = append(out, p)
		}
	}
	return out
}

// deleteKeys removes the entries of m whose key satisfies hit.
func deleteKeys[V any](m map[string]V, hit func(string) bool) {
	for k := range m {
		if hit(k) {
			delete(m, k)
		}
	}
}
