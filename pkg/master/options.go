// Package master is nfd-master's node update and NodeFeatureGroup logic,
// offline. Prepare and Stream (fleet.go, stream.go) are the one pipeline
// every mode of nfd-fn shares: they attach NodeFeatures to nodes, compile
// the rules once, render every node (merge the NodeFeatures, run the rules, filter
// and prefix labels, annotations, extended resources and taints, patch the
// Node as nfd-master patches it, tracking what it owns in the
// nfd.node.kubernetes.io annotations), evaluate the NodeFeatureGroups on
// the merged NodeFeatures, and fold the problems into diagnostics. It
// does no I/O and no logging.
package master

import (
	"regexp"

	"k8s.io/apimachinery/pkg/labels"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// DefaultNamespace is nfd-master's default namespace.
const DefaultNamespace = "node-feature-discovery"

// Options are nfd-master's settings that change the rendered nodes.
type Options struct {
	// Namespace is NFD's own namespace: NodeFeatures there merge first and
	// count as the worker's own objects.
	Namespace string
	// NamespaceKnown says Namespace is nfd-master's for certain: the
	// configuration names it (nfdNamespace) or the input holds the
	// nfd-master Deployment. Otherwise it is nfd-master's default and the
	// cluster's may differ.
	NamespaceKnown bool
	// GroupStatusAllNamespaces writes the status of NodeFeatureGroups
	// outside Namespace as a fixed nfd-master does; nfd-master v0.19.0
	// never writes it (GroupStatusKept).
	GroupStatusAllNamespaces bool
	// Instance, if set, prefixes the names of the tracking annotations.
	Instance string
	// EnableTaints lets rules taint nodes.
	EnableTaints bool
	// DenyLabelNs lists denied label namespaces; "*" prefixes a suffix match.
	DenyLabelNs []string
	// ExtraLabelNs lists namespaces allowed despite being denied.
	ExtraLabelNs []string
	// LabelWhiteList, if set, must match the name part of every label.
	LabelWhiteList *regexp.Regexp
	// DisableLabels, DisableExtendedResources and DisableAnnotations drop
	// all labels, extended resources or annotations respectively.
	DisableLabels            bool
	DisableExtendedResources bool
	DisableAnnotations       bool
	// DenyNodeFeatureLabels drops spec.labels of NodeFeatures other than
	// the worker's own (named after the node, in Namespace).
	DenyNodeFeatureLabels bool
	// AllowOverwrite lets nfd-master overwrite values of labels and
	// annotations it owned before.
	AllowOverwrite bool
	// AutoPrefix adds feature.node.kubernetes.io/ to unprefixed names
	// (off when the DisableAutoPrefix feature gate is on).
	AutoPrefix bool
	// NodeFeatureGroups evaluates NodeFeatureGroups (the
	// NodeFeatureGroupAPI feature gate).
	NodeFeatureGroups bool
	// NamespaceSelector, when set, is nfd-master's
	// restrictions.nodeFeatureNamespaceSelector: only NodeFeatures in
	// namespaces whose labels it selects are read.
	NamespaceSelector labels.Selector
	// ValidateNodes predicts the API server's refusal of what nfd-master
	// lets through (a fractional extended resource, a label value or taint
	// value the server rejects): nfd-master's update of such a node fails
	// at that patch, as it would in the cluster.
	ValidateNodes bool
	// Given says the settings come from a configuration the user gave
	// (--config, a functionConfig naming nfd-master settings): what they
	// decide (denied namespaces, labelWhiteList, enableTaints, the
	// restrictions) is then certain, so its drops are errors, not
	// warnings.
	Given bool
	// GroupGateNamed says the configuration names the NodeFeatureGroupAPI
	// gate; otherwise NodeFeatureGroups runs on nfd-fn's default, which
	// differs from NFD v0.19.0's (off).
	GroupGateNamed bool
	// Release is the NFD release whose nfd-master is reproduced; the zero
	// Release means release.Default() (NFDRelease).
	Release release.Release
	// WorkerLabels, when set, recomputes what each node's own NodeFeature
	// (named after the node) publishes, as nfd-worker with another
	// configuration would (pkg/discover's Labeler).
	WorkerLabels WorkerLabeler
}

// WorkerLabeler recomputes the NodeFeature spec nfd-worker publishes
// (its labels, and the features core.noPublishFeatures leaves) from the
// spec a snapshot shows; notes say where the snapshot could not tell. It
// must be safe for concurrent use and leave the spec given unchanged.
type WorkerLabeler interface {
	Publish(spec *api.NodeFeatureSpec) (*api.NodeFeatureSpec, diag.List)
	// FeatureNames adds the features the labels are made from to names,
	// or reports false when any feature may be read.
	FeatureNames(names map[string]bool) bool
}

// PolicySeverity grades what nfd-master drops by a setting: certain (an
// error) when the settings were given, a warning when they are only
// nfd-master's defaults and the cluster's may differ.
func (o *Options) PolicySeverity() diag.Severity {
	if o.Given {
		return diag.Error
	}
	return diag.Warning
}

// NFDRelease is the release whose nfd-master is reproduced.
func (o *Options) NFDRelease() release.Release {
	if o.Release.Name == "" {
		return release.Default()
	}
	return o.Release
}

// EvaluatesGroups reports whether NodeFeatureGroups are evaluated: with
// the NodeFeatureGroupAPI gate on, or on a release that ignores the gate
// (v0.16.0-.7, v0.17.0-.2).
func (o *Options) EvaluatesGroups() bool {
	return o.NodeFeatureGroups || !o.NFDRelease().Has(release.GroupGate)
}

// GroupStatusKept reports whether nfd-master leaves the status of a
// NodeFeatureGroup in namespace ns as it is: it queues groups by name and
// looks each up in its own namespace (NFD #2385), so it never writes the
// status of a group elsewhere. That is certain only when its namespace is
// known; otherwise, and with GroupStatusAllNamespaces, the status a fixed
// nfd-master writes is rendered. A group with no namespace is taken to be
// in nfd-master's.
func (o *Options) GroupStatusKept(ns string) bool {
	return o.NamespaceKnown && !o.GroupStatusAllNamespaces && ns != "" && ns != o.Namespace
}

// DefaultOptions returns nfd-master's defaults.
func DefaultOptions() Options {
	return Options{Namespace: DefaultNamespace, AllowOverwrite: true, AutoPrefix: true}
}

func (o *Options) annotationName(name string) string {
	full := "nfd.node.kubernetes.io/" + name
	if o.Instance == "" {
		return full
	}
	return o.Instance + "." + full
}
