// Package v1alpha1 defines nfd-fn's own copy of the node-feature-discovery
// API types of group nfd.k8s-sigs.io/v1alpha1 (NodeFeature, NodeFeatureRule
// and NodeFeatureGroup), field for field with NFD v0.19.
//
// NFD's own Go module is not available to us, so these types are written
// from the published API. JSON names match NFD's; pointers are used exactly
// where NFD distinguishes "absent" from "empty" (for example a nil
// matchExpressions skips expression matching, while an empty set matches
// every element).
package v1alpha1

// Group is the API group of the NFD kinds.
const Group = "nfd.k8s-sigs.io"

// Version is the API version of the NFD kinds.
const Version = "v1alpha1"

// APIVersion is the apiVersion string of the NFD kinds.
const APIVersion = Group + "/" + Version

// Kind names of the NFD objects.
const (
	KindNodeFeature      = "NodeFeature"
	KindNodeFeatureRule  = "NodeFeatureRule"
	KindNodeFeatureGroup = "NodeFeatureGroup"
)

// Well-known label and annotation names used by nfd-master.
const (
	// NodeNameLabel attaches a NodeFeature object to the node it describes.
	NodeNameLabel = "nfd.node.kubernetes.io/node-name"
	// FeatureLabelNs is the default namespace of feature labels.
	FeatureLabelNs = "feature.node.kubernetes.io"
	// FeatureAnnotationNs is the namespace of rule annotations.
	FeatureAnnotationNs = "feature.node.kubernetes.io"
	// ProfileLabelNs is the namespace of profile labels.
	ProfileLabelNs = "profile.node.kubernetes.io"
	// AnnotationNs is the namespace of nfd-master's bookkeeping annotations.
	AnnotationNs = "nfd.node.kubernetes.io"
	// FeatureLabelsAnnotation records the labels nfd-master set on a node.
	FeatureLabelsAnnotation = "feature-labels"
	// ExtendedResourceAnnotation records the extended resources nfd-master set.
	ExtendedResourceAnnotation = "extended-resources"
	// FeatureAnnotationsTrackingAnnotation records the annotations nfd-master set.
	FeatureAnnotationsTrackingAnnotation = "feature-annotations"
	// NodeTaintsAnnotation records the taints nfd-master set.
	NodeTaintsAnnotation = "taints"
	// RuleBackrefDomain and RuleBackrefFeature name the rule.matched feature.
	RuleBackrefDomain  = "rule"
	RuleBackrefFeature = "matched"
)
