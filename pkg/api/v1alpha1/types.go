package v1alpha1

// ObjectMeta is the subset of Kubernetes object metadata nfd-fn reads.
type ObjectMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// NodeFeature carries the raw features of one node (or a part of them) and
// labels requested for it.
type NodeFeature struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Metadata   ObjectMeta      `json:"metadata"`
	Spec       NodeFeatureSpec `json:"spec"`
}

// NodeFeatureSpec is the spec of a NodeFeature.
type NodeFeatureSpec struct {
	// Features is the full "raw" features data of the node.
	Features Features `json:"features"`
	// Labels is the set of node labels requested directly by the object.
	Labels map[string]string `json:"labels,omitempty"`
}

// Features is the collection of all discovered features of a node, split by
// feature type. Keys are feature names of the form <domain>.<feature>.
type Features struct {
	Flags      map[string]FlagFeatureSet      `json:"flags,omitempty"`
	Attributes map[string]AttributeFeatureSet `json:"attributes,omitempty"`
	Instances  map[string]InstanceFeatureSet  `json:"instances,omitempty"`
}

// Nil is the empty value of a flag element.
type Nil struct{}

// FlagFeatureSet is a set of names without values (CPUID flags, modules).
// In every feature set elements is required (the CRD's "required"):
// nfd-worker always writes it, {} or [] when empty; null is refused.
type FlagFeatureSet struct {
	Elements map[string]Nil `json:"elements" yamlstrict:"required"`
}

// AttributeFeatureSet is a set of names with one value each.
type AttributeFeatureSet struct {
	Elements map[string]string `json:"elements" yamlstrict:"required"`
}

// InstanceFeatureSet is a list of instances, each with its own attributes.
type InstanceFeatureSet struct {
	Elements []InstanceFeature `json:"elements" yamlstrict:"required"`
}

// InstanceFeature is one instance (a PCI device, a block device...).
type InstanceFeature struct {
	Attributes map[string]string `json:"attributes" yamlstrict:"required"`
}

// NodeFeatureRule holds labelling rules evaluated by nfd-master.
type NodeFeatureRule struct {
	APIVersion string              `json:"apiVersion"`
	Kind       string              `json:"kind"`
	Metadata   ObjectMeta          `json:"metadata"`
	Spec       NodeFeatureRuleSpec `json:"spec"`
}

// NodeFeatureRuleSpec is the spec of a NodeFeatureRule.
type NodeFeatureRuleSpec struct {
	Rules []Rule `json:"rules"`
}

// Rule is one labelling rule.
type Rule struct {
	Name              string            `json:"name"`
	Labels            map[string]string `json:"labels,omitempty"`
	LabelsTemplate    string            `json:"labelsTemplate,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`
	Vars              map[string]string `json:"vars,omitempty"`
	VarsTemplate      string            `json:"varsTemplate,omitempty"`
	Taints            []Taint           `json:"taints,omitempty"`
	ExtendedResources map[string]string `json:"extendedResources,omitempty"`
	MatchFeatures     FeatureMatcher    `json:"matchFeatures,omitempty"`
	MatchAny          []MatchAnyElem    `json:"matchAny,omitempty"`
}

// Taint is a node taint, as in core/v1.
type Taint struct {
	Key       string `json:"key"`
	Value     string `json:"value,omitempty"`
	Effect    string `json:"effect"`
	TimeAdded string `json:"timeAdded,omitempty"`
}

// Taint effects accepted by Kubernetes.
const (
	TaintEffectNoSchedule       = "NoSchedule"
	TaintEffectPreferNoSchedule = "PreferNoSchedule"
	TaintEffectNoExecute        = "NoExecute"
)

// MatchAnyElem is one alternative of a matchAny list.
type MatchAnyElem struct {
	MatchFeatures FeatureMatcher `json:"matchFeatures"`
}

// FeatureMatcher is a list of terms, all of which must match (logical AND).
type FeatureMatcher []FeatureMatcherTerm

// FeatureMatcherTerm matches the elements of one feature.
type FeatureMatcherTerm struct {
	// Feature is the name of the feature (<domain>.<feature>).
	Feature string `json:"feature"`
	// MatchExpressions is evaluated against the elements of the feature. A
	// nil set is not evaluated at all; an empty set matches every element.
	MatchExpressions *MatchExpressionSet `json:"matchExpressions,omitempty"`
	// MatchName is evaluated against the element names of the feature.
	MatchName *MatchExpression `json:"matchName,omitempty"`
}

// MatchExpressionSet maps element names to the expression they must satisfy.
type MatchExpressionSet map[string]*MatchExpression

// MatchExpression is one operator with its values.
type MatchExpression struct {
	Op    MatchOp    `json:"op"`
	Value MatchValue `json:"value,omitempty"`
	// Type selects how comparison operators read their operands.
	Type ValueType `json:"type,omitempty"`
}

// MatchValue is the list of operator arguments.
type MatchValue []string

// ValueType selects the interpretation of values for comparison operators.
type ValueType string

// Value types.
const (
	// ValueTypeInt compares decimal integers (the default).
	ValueTypeInt ValueType = ""
	// ValueTypeVersion compares semantic versions.
	ValueTypeVersion ValueType = "version"
)

// NodeFeatureGroup selects the nodes that satisfy any of its group rules.
type NodeFeatureGroup struct {
	APIVersion string                 `json:"apiVersion"`
	Kind       string                 `json:"kind"`
	Metadata   ObjectMeta             `json:"metadata"`
	Spec       NodeFeatureGroupSpec   `json:"spec"`
	Status     NodeFeatureGroupStatus `json:"status,omitempty"`
}

// NodeFeatureGroupSpec is the spec of a NodeFeatureGroup.
type NodeFeatureGroupSpec struct {
	Rules []GroupRule `json:"featureGroupRules"`
}

// GroupRule is one rule of a NodeFeatureGroup: a node that matches any group
// rule is a member of the group.
type GroupRule struct {
	Name          string            `json:"name"`
	Vars          map[string]string `json:"vars,omitempty"`
	VarsTemplate  string            `json:"varsTemplate,omitempty"`
	MatchFeatures FeatureMatcher    `json:"matchFeatures,omitempty"`
	MatchAny      []MatchAnyElem    `json:"matchAny,omitempty"`
}

// NodeFeatureGroupStatus lists the members of a group.
type NodeFeatureGroupStatus struct {
	Nodes []FeatureGroupNode `json:"nodes,omitempty"`
}

// FeatureGroupNode names one member node.
type FeatureGroupNode struct {
	Name string `json:"name"`
}
