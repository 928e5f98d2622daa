package inputs

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// WorkerConfigIn is the nfd-worker configuration among items: the first
// ConfigMap with data["nfd-worker.conf"] (lint.ReadWorkerConfigMap), as
// NFD's Helm chart and kustomize deployment make it; nil when there is
// none. One before it that cannot be read is an error about its item,
// among the returned problems.
func WorkerConfigIn(items []*krm.Item) (*lint.WorkerConfig, diag.List) {
	var w workerConfigs
	w.look(items, func(i int, _ *krm.Item) int { return i })
	return w.first()
}

// workerConfigMap is the nfd-worker configuration of item it when it is
// a ConfigMap holding one, else nil; a problem about the item when that
// configuration cannot be read.
func workerConfigMap(it *krm.Item) (*lint.WorkerConfig, *diag.Diagnostic) {
	if it.Kind != "ConfigMap" || it.Node == nil && it.Raw != nil && !holdsWorkerConfig(it.Raw) {
		return nil, nil
	}
	wc, err := lint.ReadWorkerConfigMap(ItemTree(it), ItemRef(it), it.File)
	if err != nil {
		d := AboutItem(it, "data["+lint.WorkerConfigKey+"]", diag.Diagnostic{Severity: diag.Error, Message: err.Error()})
		return nil, &d
	}
	return wc, nil
}

// workerConfigs are the ConfigMaps holding an nfd-worker configuration
// met, wherever in the input: a Reader does not read its files in their
// order (ResourceLists first), so each is kept with its place.
type workerConfigs struct {
	seen []workerConfigSeen
	// lines places the problems at the ConfigMap's line in its file (a
	// Reader's files; a ResourceList's results name the item alone).
	lines bool
}

// workerConfigSeen is one such ConfigMap: its configuration or why it
// cannot be read, and its place (the rank of its file among the
// arguments', its index in the file).
type workerConfigSeen struct {
	rank, index int
	wc          *lint.WorkerConfig
	problem     *diag.Diagnostic
}

// look records the worker ConfigMaps among items, the i-th item's file
// ranked by rank, up to the first whose configuration reads: items come
// in the order of their files and documents, so none after it counts.
func (w *workerConfigs) look(items []*krm.Item, rank func(i int, it *krm.Item) int) {
	for i, it := range items {
		wc, problem := workerConfigMap(it)
		if problem != nil && w.lines {
			if tree := ItemTree(it); tree != nil {
				problem.Pos.Line, problem.Pos.Column = tree.Line, tree.Column
			}
		}
		if wc != nil || problem != nil {
			w.seen = append(w.seen, workerConfigSeen{rank: rank(i, it), index: it.Index, wc: wc, problem: problem})
		}
		if wc != nil {
			return
		}
	}
}

// first is WorkerConfigIn over the ConfigMaps seen, in the order of the
// files and of their documents.
func (w *workerConfigs) first() (*lint.WorkerConfig, diag.List) {
	seen := slices.Clone(w.seen)
	slices.SortStableFunc(seen, func(a, b workerConfigSeen) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.index, b.index))
	})
	var problems diag.List
	for _, s := range seen {
		if s.problem != nil {
			problems = append(problems, *s.problem)
		}
		if s.wc != nil {
			return s.wc, problems
		}
	}
	return nil, problems
}

// holdsWorkerConfig reports a file that may hold an nfd-worker
// configuration ConfigMap: it names the configuration's key.
func holdsWorkerConfig(data []byte) bool {
	return bytes.Contains(data, []byte(lint.WorkerConfigKey))
}
