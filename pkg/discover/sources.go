package discover

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// sourceKind says whether a source discovers features, makes labels, or both.
type sourceKind int

const (
	featureKind sourceKind = 1 << iota
	labelKind
	// supplementalKind marks a source "all" leaves out: it runs only when
	// core.featureSources or core.labelSources names it.
	supplementalKind
)

// sourceKinds lists every source of nfd-worker v0.19: those it enables by
// default and the fake source, which only its configuration enables.
func sourceKinds() map[string]sourceKind {
	both := featureKind | labelKind
	return map[string]sourceKind{
		"cpu": both, "kernel": both, "memory": both, "network": both, "pci": both,
		"storage": both, "system": both, "usb": both, "local": both, "custom": labelKind,
		"fake": both | supplementalKind,
	}
}

// SourceNames lists, sorted, the sources Options.Sources and
// Options.SkipSources may name: every source nfd-worker enables by default.
func SourceNames() []string {
	var out []string
	for name, kind := range sourceKinds() {
		if kind&supplementalKind == 0 {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// featureSourceFunc returns the discovery function of a feature source.
func featureSourceFunc(name string) func(*env, *collector) {
	switch name {
	case "cpu":
		return discoverCPU
	case "kernel":
		return discoverKernel
	case "memory":
		return discoverMemory
	case "network":
		return discoverNetwork
	case "pci":
		return discoverPCI
	case "storage":
		return discoverStorage
	case "system":
		return discoverSystem
	case "usb":
		return discoverUSB
	case "local":
		return discoverLocal
	case "fake":
		return discoverFake
	}
	return func(_ *env, c *collector) { c.warn("unknown feature source") }
}

// selection is the sorted names of the enabled feature and label sources.
type selection struct {
	features, labels []string
}

// selectSources combines the worker config's core.featureSources and
// core.labelSources with Options.Sources and Options.SkipSources.
func selectSources(o Options, cfg workerConfig) (selection, error) {
	kinds := sourceKinds()
	for _, n := range append(slices.Clone(o.Sources), o.SkipSources...) {
		if !slices.Contains(SourceNames(), n) {
			return selection{}, fmt.Errorf("unknown source %q (known: %s)", n, strings.Join(SourceNames(), ", "))
		}
	}
	keep := func(n string) bool {
		return (o.Sources == nil || slices.Contains(o.Sources, n)) && !slices.Contains(o.SkipSources, n)
	}
	return selection{
		features: pickSources(cfg.Core.FeatureSources, featureKind, kinds, keep),
		labels:   pickSources(cfg.Core.LabelSources, labelKind, kinds, keep),
	}, nil
}

// pickSources applies an nfd-worker source list ("all", "name", "-name")
// to the sources of one kind, then the keep filter.
func pickSources(list []string, kind sourceKind, kinds map[string]sourceKind, keep func(string) bool) []string {
	set := map[string]bool{}
	for _, n := range list {
		name, disable := strings.CutPrefix(n, "-")
		switch {
		case n == "all":
			for k, v := range kinds {
				if v&kind != 0 && v&supplementalKind == 0 {
					set[k] = true
				}
			}
		case kinds[name]&kind == 0:
			// nfd-worker skips unknown sources.
		case disable:
			delete(set, name)
		default:
			set[name] = true
		}
	}
	var out []string
	for n := range set {
		if keep(n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
