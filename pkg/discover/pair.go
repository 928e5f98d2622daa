package discover

import (
	"maps"
	"reflect"
	"slices"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// PairWith returns Publish for this configuration and other's at once,
// for the two sides of a worker configuration change: the labels of the
// sources both configure alike (the same release, labelWhiteList and
// settings of the source, the same features withheld) are made once.
// It returns nil when other is not a Labeler.
func (l *Labeler) PairWith(other any) func(spec *v1alpha1.NodeFeatureSpec) (mine, theirs *v1alpha1.NodeFeatureSpec, myNotes, theirNotes diag.List) {
	o, ok := other.(*Labeler)
	if !ok || o == nil {
		return nil
	}
	same := map[string]bool{}
	if reflect.DeepEqual(l.e.rel, o.e.rel) && slices.Equal(l.withheld, o.withheld) && l.e.cfg.labelWhiteList.String() == o.e.cfg.labelWhiteList.String() {
		for _, n := range l.sources {
			if slices.Contains(o.sources, n) && reflect.DeepEqual(sourceSettings(&l.e.cfg, n), sourceSettings(&o.e.cfg, n)) {
				same[n] = true
			}
		}
	}
	return func(spec *v1alpha1.NodeFeatureSpec) (*v1alpha1.NodeFeatureSpec, *v1alpha1.NodeFeatureSpec, diag.List, diag.List) {
		sh := &sourceShare{same: same, made: map[string]map[string]string{}}
		mine, myNotes := l.publish(spec, sh)
		sh.done = true
		theirs, theirNotes := o.publish(spec, sh)
		return mine, theirs, myNotes, theirNotes
	}
}

// sourceSettings are the settings of the configuration that shape label
// source n's labels besides the release and labelWhiteList (nil for a
// source with none).
func sourceSettings(c *workerConfig, n string) any {
	return map[string]any{"cpu": c.Sources.CPU, "kernel": c.Sources.Kernel, "pci": c.Sources.PCI,
		"usb": c.Sources.USB, "custom": c.Sources.Custom, "fake": c.Sources.Fake}[n]
}

// sourceShare carries the labels the first configuration of a pair made,
// by source, to the second.
type sourceShare struct {
	// same are the sources both configurations label alike.
	same map[string]bool
	// made are the first configuration's labels of those sources.
	made map[string]map[string]string
	// done says the first configuration has published: the second reads.
	done bool
}

// publishSource publishes source n's labels into labels: the first
// configuration's when the pair labels the source alike, else made anew
// by make (and kept for the second when alike).
func (sh *sourceShare) publishSource(labels map[string]string, n string, make func(into map[string]string)) {
	if sh == nil || !sh.same[n] {
		make(labels)
		return
	}
	if made, ok := sh.made[n]; sh.done && ok {
		maps.Copy(labels, made)
		return
	} else if sh.done {
		make(labels)
		return
	}
	made := map[string]string{}
	make(made)
	sh.made[n] = made
	maps.Copy(labels, made)
}
