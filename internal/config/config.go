package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/featuregate"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// ConfigAPIVersion and ConfigKind name nfd-fn's typed functionConfig.
const (
	ConfigAPIVersion = "fn.nfd-fn.dev/v1alpha1"
	ConfigKind       = "NFDFunctionConfig"
)

// FunctionConfig is nfd-fn's typed functionConfig. A ConfigMap with the
// same keys under data (lists comma-separated, booleans as strings, feature
// gates as Name=bool,...) is accepted too.
type FunctionConfig struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	// Mode is render (default), validate, discover, plan or test.
	Mode         string   `json:"mode,omitempty"`
	NfdNamespace string   `json:"nfdNamespace,omitempty"`
	Instance     string   `json:"instance,omitempty"`
	EnableTaints *bool    `json:"enableTaints,omitempty"`
	DenyLabelNs  []string `json:"denyLabelNs,omitempty"`
	ExtraLabelNs []string `json:"extraLabelNs,omitempty"`
	// LabelWhiteList is a regexp matched (unanchored) against label names.
	LabelWhiteList string `json:"labelWhiteList,omitempty"`
	// NodeFeatureNamespaceSelector is nfd-master's
	// restrictions.nodeFeatureNamespaceSelector, in label selector syntax
	// ("team=gpu,env in (prod)"): only NodeFeatures in namespaces it
	// selects are read. The input's v1 Namespace objects give the labels.
	NodeFeatureNamespaceSelector string `json:"nodeFeatureNamespaceSelector,omitempty"`
	// FeatureGates maps gate names to values, as nfd-master's
	// -feature-gates flag (no AllAlpha or AllBeta: nfd-master refuses them).
	FeatureGates             FeatureGateSettings `json:"featureGates,omitempty"`
	DisableLabels            *bool               `json:"disableLabels,omitempty"`
	DisableExtendedResources *bool               `json:"disableExtendedResources,omitempty"`
	DisableAnnotations       *bool               `json:"disableAnnotations,omitempty"`
	DenyNodeFeatureLabels    *bool               `json:"denyNodeFeatureLabels,omitempty"`
	AllowOverwrite           *bool               `json:"allowOverwrite,omitempty"`
	// Ignore accepts known findings for the whole run: check IDs or names
	// (NFD020, matches-no-node), optionally CHECK:rule name, comma
	// separated in a ConfigMap. docs/checks.md lists the checks.
	Ignore []string `json:"ignore,omitempty"`
	// NodeOutput is how Nodes are written: "preview" (default: existing
	// Nodes patched in place, new ones local-config), "apply" (each Node
	// as only what NFD owns, for kubectl apply --server-side) or "labels"
	// (no Node written: one info result per node saying what it gets).
	NodeOutput string `json:"nodeOutput,omitempty"`
	// Shard renders only the nodes of shard I of N ("I/N"; see
	// master.Shard), for fleets rendered by several processes.
	Shard string `json:"shard,omitempty"`
	// OpenShiftAlias reads NodeFeatureRules written in the OpenShift NFD
	// operator's group (nfd.openshift.io/v1alpha1) as upstream ones, with
	// an info result (default true; false makes them errors).
	OpenShiftAlias *bool `json:"openShiftAlias,omitempty"`
	// ValidateNodes predicts the API server's refusal of Node updates
	// nfd-master sends but the server rejects (see master.Options).
	ValidateNodes *bool `json:"validateNodes,omitempty"`
	// ExplainNode asks render for info results explaining every rule on
	// this node; ExplainRule narrows them to one rule.
	ExplainNode string `json:"explainNode,omitempty"`
	ExplainRule string `json:"explainRule,omitempty"`
	// StampVersion records the nfd-fn version in an nfd-fn.dev/version
	// annotation on every Node nfd-fn writes (off: nfd-master writes no
	// such key).
	StampVersion *bool `json:"stampVersion,omitempty"`
	// NovaProviderConfig makes render also write a Nova provider config
	// (docs/openstack-nova.md); the other Nova* fields tune it.
	NovaProviderConfig     *bool                  `json:"novaProviderConfig,omitempty"`
	NovaProviderConfigPath string                 `json:"novaProviderConfigPath,omitempty"`
	NovaTraitLabels        string                 `json:"novaTraitLabels,omitempty"`
	NovaInventoryDefaults  *NovaInventoryDefaults `json:"novaInventoryDefaults,omitempty"`
	// Mode discover settings (fn/discover.go, docs/discover.md): the host
	// root to read, the node name, the features.d directory, the sources to
	// run or skip, an nfd-worker configuration file and the architecture
	// whose nfd-worker is reproduced. nfdNamespace is the NodeFeature's
	// namespace.
	HostRoot     string   `json:"hostRoot,omitempty" mode:"discover"`
	NodeName     string   `json:"nodeName,omitempty" mode:"discover"`
	FeaturesDir  string   `json:"featuresDir,omitempty" mode:"discover"`
	Sources      []string `json:"sources,omitempty" mode:"discover"`
	SkipSources  []string `json:"skipSources,omitempty" mode:"discover"`
	WorkerConfig string   `json:"workerConfig,omitempty" mode:"discover"`
	Arch         string   `json:"arch,omitempty" mode:"discover"`
	// NfdVersion is the NFD release to render as (docs/releases.md):
	// v0.17.1, v0.18, openshift-5.0, ...; unset, the release the input
	// shows, else v0.19.0.
	NfdVersion string `json:"nfdVersion,omitempty"`
	// CrdVersion is the NFD release whose CRDs the API server admits
	// objects with, when they lag the operand (docs/releases.md); the
	// release rendered as's own by default.
	CrdVersion string `json:"crdVersion,omitempty"`
	// StrictFieldValidation rejects objects with fields the release's
	// CRDs do not know, misspelt or a newer release's, as the API server
	// does under kubectl apply's fieldValidation=Strict, instead of
	// pruning them as under client-go's Warn; unset, validate assumes
	// true and the other modes false (Settings.AssumeStrict).
	StrictFieldValidation *bool `json:"strictFieldValidation,omitempty"`
	// AutoDefaultNs is nfd-master's autoDefaultNs (NFD v0.17 and
	// earlier): false leaves unprefixed names unprefixed.
	AutoDefaultNs *bool `json:"autoDefaultNs,omitempty"`
	// GroupStatusAllNamespaces renders the status of NodeFeatureGroups
	// outside nfd-master's namespace as a fixed nfd-master writes it; NFD
	// v0.19.0's never does (NFD #2385), so by default, once that namespace
	// is known, such a group's status is left as it was.
	GroupStatusAllNamespaces *bool `json:"groupStatusAllNamespaces,omitempty"`
	// FeatureCatalog declares features producers other than nfd-worker
	// publish (lint.ReadFeatureCatalog's YAML, as a string): a misspelt
	// declared feature or element is an error rather than a warning.
	FeatureCatalog string `json:"featureCatalog,omitempty"`
	// WorkerConfigMap names a ConfigMap among the items ("name" or
	// "namespace/name") whose data["nfd-worker.conf"] is the nfd-worker
	// configuration about to roll out: render recomputes each node's
	// built-in labels with it and validate warns about workloads selecting
	// a label it no longer produces, as --worker-config does.
	WorkerConfigMap string `json:"workerConfigMap,omitempty"`
}

// Settings is the functionConfig resolved into what the modes need.
type Settings struct {
	Mode    string
	Options master.Options
	Gates   *featuregate.Gates
	// ExplainNode and ExplainRule select the explain info results.
	ExplainNode, ExplainRule string
	// StampVersion adds the nfd-fn.dev/version annotation to Nodes.
	StampVersion bool
	// OpenShiftAlias reads nfd.openshift.io/v1alpha1 NodeFeatureRules.
	OpenShiftAlias bool
	// NodeOutput is NodeOutputPreview or NodeOutputApply.
	NodeOutput string
	// Shard is the part of the fleet mode render renders (the zero Shard:
	// all of it).
	Shard master.Shard
	// Ignore is the run's suppressions (the ignore key), and IgnoreField
	// where they are written.
	Ignore, IgnoreField string
	// Nova holds the Nova provider config settings (internal/modes/nova.go).
	Nova NovaSettings
	// Discover holds the mode discover settings.
	Discover DiscoverOptions
	// ReleaseGiven reports a release named by nfdVersion rather than
	// assumed; Options.Release is the release (see SetRelease).
	ReleaseGiven bool
	// StrictFieldValidation rejects objects with unknown fields rather
	// than pruning them (admission), as the API server does under
	// fieldValidation Strict (kubectl's default) rather than Warn
	// (client-go's); StrictFieldValidationGiven reports the setting given
	// rather than defaulted (see AssumeStrict).
	StrictFieldValidation, StrictFieldValidationGiven bool
	// CRDs, when named, is the release whose CRDs admit the objects
	// (crdVersion, --crd-version), whatever release is rendered as.
	CRDs release.Release
	// WorkerConfig, when set, is the nfd-worker configuration (its
	// text, from WorkerConfigFile) each node's own NodeFeature's labels
	// are recomputed with (render --worker-config), once the release is
	// settled.
	WorkerConfig     []byte
	WorkerConfigFile string
	// WorkerConfigMap is the functionConfig's workerConfigMap, and
	// WorkerConfigField where it is written (inputs.NamedWorkerConfig
	// finds the ConfigMap among the items).
	WorkerConfigMap, WorkerConfigField string
	// releaseKeys are the settings given that only some releases have;
	// autoDefaultNs is the autoDefaultNs setting.
	releaseKeys   []givenKey
	autoDefaultNs *bool
	// configured are the master options as the functionConfig sets them,
	// before a release leaves some out (SetRelease).
	configured master.Options
	// FeatureCatalog declares third-party features (nil: none).
	FeatureCatalog *lint.FeatureCatalog
}

// cfgError and cfgWarning are problems in the functionConfig at a field
// path; report.config places them on the functionConfig object.
func cfgError(field, msg string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Check: "config", Field: field, Message: msg}
}

func cfgWarning(field, msg string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Check: "config", Field: field, Message: msg}
}

// Load reads the functionConfig (nil means all defaults): decoded from
// either form, defaulted, validated and compiled into Settings.
func Load(n *yaml.Node) (Settings, diag.List) {
	fc, problems := parseFunctionConfig(n)
	fc.Default()
	problems = append(problems, fc.Validate()...)
	s, more := fc.settings()
	return s, append(problems, more...)
}

// Default fills what the functionConfig leaves out with nfd-fn's
// defaults (the kyaml fn/framework convention: Default, then Validate).
func (fc *FunctionConfig) Default() {
	if fc.Mode == "" {
		fc.Mode = "render"
	}
	if fc.NodeOutput == "" {
		fc.NodeOutput = NodeOutputPreview
	}
	if fc.OpenShiftAlias == nil {
		on := true
		fc.OpenShiftAlias = &on
	}
}

// Validate checks the settings that need no compiling: the mode, the
// node output, explainRule's pairing with explainNode, the instance name.
// Regexps, selectors, feature gates and the Nova and discover settings
// are checked as they are compiled (settings).
func (fc *FunctionConfig) Validate() diag.List {
	var problems diag.List
	switch fc.Mode {
	case "render", "validate", "discover", "plan", "test":
	default:
		problems = append(problems, cfgError(fc.field("mode"), fmt.Sprintf("unknown mode %q: want render, validate, discover, plan or test", fc.Mode)))
	}
	switch fc.NodeOutput {
	case NodeOutputPreview, NodeOutputApply, NodeOutputLabels:
	default:
		problems = append(problems, cfgError(fc.field("nodeOutput"), fmt.Sprintf("unknown nodeOutput %q: want %s, %s or %s", fc.NodeOutput, NodeOutputPreview, NodeOutputApply, NodeOutputLabels)))
	}
	if fc.ExplainRule != "" && fc.ExplainNode == "" {
		problems = append(problems, cfgError(fc.field("explainRule"), "explainRule needs explainNode: the node to explain the rule on"))
	}
	return append(problems, checkInstance(fc.field("instance"), fc.Instance)...)
}

func parseFunctionConfig(n *yaml.Node) (*FunctionConfig, diag.List) {
	fc := &FunctionConfig{}
	if n == nil || yamlstrict.IsNull(n) {
		return fc, nil
	}
	kind, apiVersion := yamlstrict.Scalar(n, "kind"), yamlstrict.Scalar(n, "apiVersion")
	switch {
	case kind == "ConfigMap":
		return fromConfigMap(n)
	case kind == ConfigKind:
		var problems diag.List
		for _, e := range yamlstrict.NewDecoder(nil).Decode(n, fc, "") {
			problems = append(problems, cfgError(e.Path, e.Msg))
		}
		if apiVersion != ConfigAPIVersion {
			problems = append(problems, cfgError("apiVersion", fmt.Sprintf("apiVersion must be %s", ConfigAPIVersion)))
		}
		return fc, problems
	}
	return fc, diag.List{cfgError("kind", fmt.Sprintf("functionConfig must be a ConfigMap or a %s/%s, got %s %q", ConfigAPIVersion, ConfigKind, apiVersion, kind))}
}

func fromConfigMap(n *yaml.Node) (*FunctionConfig, diag.List) {
	fc := &FunctionConfig{}
	var problems diag.List
	data := yamlstrict.Value(n, "data")
	if data == nil || yamlstrict.IsNull(data) {
		return fc, nil
	}
	if data.Kind != yaml.MappingNode {
		return fc, diag.List{cfgError("data", "data must be a mapping of strings")}
	}
	for i := 0; i+1 < len(data.Content); i += 2 {
		key, v := data.Content[i].Value, data.Content[i+1]
		field := "data." + key
		if v.Kind != yaml.ScalarNode {
			problems = append(problems, cfgError(field, "value must be a string"))
			continue
		}
		if err := fc.setFromString(key, v.Value); err != nil {
			problems = append(problems, cfgError(field, err.Error()))
		}
	}
	return fc, problems
}

// setFromString sets the setting named key from its ConfigMap form.
func (fc *FunctionConfig) setFromString(key, val string) error {
	k, ok := configKeyNamed(key)
	if !ok {
		msg := fmt.Sprintf("unknown key %q", key)
		if best := suggest.Closest(key, configKeyNames()); best != "" {
			msg += fmt.Sprintf(": did you mean %q?", best)
		}
		return errors.New(msg + " (the README lists every key)")
	}
	return k.set(fc, val)
}

// FeatureGateSettings maps feature gate names (nfd-master's: no AllAlpha
// or AllBeta) to
// values. In a ConfigMap it is written Name=true,Other=false.
type FeatureGateSettings map[string]bool

func (g *FeatureGateSettings) setString(val string) error {
	*g = FeatureGateSettings{}
	for _, part := range SplitList(val) {
		name, v, ok := strings.Cut(part, "=")
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if !ok || err != nil {
			return fmt.Errorf("invalid feature gate setting %q: want Name=true or Name=false", part)
		}
		(*g)[strings.TrimSpace(name)] = b
	}
	return nil
}

// SplitList splits a comma-separated setting, trimming the parts and
// dropping empty ones.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// resolve applies defaults and validates.
// settings compiles a defaulted functionConfig into what the modes use.
func (fc *FunctionConfig) settings() (Settings, diag.List) {
	var problems diag.List
	s := Settings{Mode: fc.Mode, Options: master.DefaultOptions(), Gates: featuregate.New(featuregate.Defaults()),
		ExplainNode: fc.ExplainNode, ExplainRule: fc.ExplainRule, NodeOutput: fc.NodeOutput,
		Ignore: strings.Join(fc.Ignore, ","), IgnoreField: fc.field("ignore")}
	setBool(&s.StampVersion, fc.StampVersion)
	setBool(&s.OpenShiftAlias, fc.OpenShiftAlias)
	if fc.Shard != "" {
		shard, err := master.ParseShard(fc.Shard)
		if err != nil {
			problems = append(problems, cfgError(fc.field("shard"), err.Error()))
		}
		s.Shard = shard
	}
	o := &s.Options
	if fc.NfdNamespace != "" {
		o.Namespace, o.NamespaceKnown = fc.NfdNamespace, true
	}
	setBool(&o.GroupStatusAllNamespaces, fc.GroupStatusAllNamespaces)
	o.Instance = fc.Instance
	setBool(&o.EnableTaints, fc.EnableTaints)
	setBool(&o.DisableLabels, fc.DisableLabels)
	setBool(&o.DisableExtendedResources, fc.DisableExtendedResources)
	setBool(&o.DisableAnnotations, fc.DisableAnnotations)
	setBool(&o.DenyNodeFeatureLabels, fc.DenyNodeFeatureLabels)
	setBool(&o.AllowOverwrite, fc.AllowOverwrite)
	setBool(&o.ValidateNodes, fc.ValidateNodes)
	o.DenyLabelNs, o.ExtraLabelNs = fc.DenyLabelNs, fc.ExtraLabelNs
	if fc.LabelWhiteList != "" {
		re, err := regexp.Compile(fc.LabelWhiteList)
		if err != nil {
			problems = append(problems, cfgError(fc.field("labelWhiteList"), fmt.Sprintf("invalid regexp: %v", err)))
		} else {
			o.LabelWhiteList = re
		}
	}
	if fc.NodeFeatureNamespaceSelector != "" {
		sel, err := labels.Parse(fc.NodeFeatureNamespaceSelector)
		if err != nil {
			problems = append(problems, cfgError(fc.field("nodeFeatureNamespaceSelector"), fmt.Sprintf("invalid label selector: %v", err)))
		} else {
			o.NamespaceSelector = sel
		}
	}
	problems = append(problems, fc.applyGates(s.Gates)...)
	o.Given = fc.namesMasterSettings()
	_, named := fc.FeatureGates[featuregate.NodeFeatureGroupAPI]
	o.GroupGateNamed = named
	o.AutoPrefix = !s.Gates.Enabled(featuregate.DisableAutoPrefix)
	o.NodeFeatureGroups = s.Gates.Enabled(featuregate.NodeFeatureGroupAPI)
	var novaProblems diag.List
	s.Nova, novaProblems = fc.resolveNova()
	problems = append(problems, novaProblems...)
	problems = append(problems, fc.resolveDiscover(&s)...)
	problems = append(problems, fc.resolveRelease(&s)...)
	problems = append(problems, fc.resolveWorkerConfigMap(&s)...)
	if fc.FeatureCatalog != "" {
		cat, err := lint.ReadFeatureCatalog([]byte(fc.FeatureCatalog), "featureCatalog")
		if err != nil {
			problems = append(problems, cfgError(fc.field("featureCatalog"), err.Error()))
		}
		s.FeatureCatalog = cat
	}
	return s, problems
}

// namesMasterSettings reports whether the functionConfig sets any of
// nfd-master's settings: then it describes the cluster's nfd-master, and
// what it decides (defaults included) is certain (master.Options.Given).
// A functionConfig that only picks the mode or suppressions does not.
func (fc *FunctionConfig) namesMasterSettings() bool {
	bools := []*bool{fc.EnableTaints, fc.DisableLabels, fc.DisableExtendedResources, fc.DisableAnnotations, fc.DenyNodeFeatureLabels, fc.AllowOverwrite}
	for _, b := range bools {
		if b != nil {
			return true
		}
	}
	return fc.DenyLabelNs != nil || fc.ExtraLabelNs != nil || fc.LabelWhiteList != "" || len(fc.FeatureGates) > 0 ||
		fc.NfdNamespace != "" || fc.Instance != "" || fc.NodeFeatureNamespaceSelector != ""
}

func (fc *FunctionConfig) applyGates(g *featuregate.Gates) diag.List {
	if len(fc.FeatureGates) == 0 {
		return nil
	}
	var parts []string
	for name, v := range fc.FeatureGates {
		parts = append(parts, fmt.Sprintf("%s=%v", name, v))
	}
	var problems diag.List
	for _, p := range g.Set(strings.Join(parts, ",")) {
		p.Field = fc.field("featureGates")
		problems = append(problems, p)
	}
	return problems
}

// field returns the path of a setting in whichever form was given.
func (fc *FunctionConfig) field(name string) string {
	if fc.Kind == ConfigKind {
		return name
	}
	return "data." + name
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

// instancePattern is the instance name nfd-master accepts at start-up.
var instancePattern = regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`)

// checkInstance judges an instance name as nfd-master does (it refuses to
// start on one its pattern rejects), and warns when the annotation prefix
// it makes (<instance>.nfd.node.kubernetes.io) is not a DNS subdomain, so
// that the API server would refuse every tracking annotation.
func checkInstance(field, instance string) diag.List {
	if instance == "" {
		return nil
	}
	if !instancePattern.MatchString(instance) {
		return diag.List{cfgError(field, fmt.Sprintf("invalid instance name %q: nfd-master accepts letters, digits, '-', '_' and '.', starting and ending with a letter or digit", instance))}
	}
	if errs := validation.IsDNS1123Subdomain(instance + ".nfd.node.kubernetes.io"); len(errs) > 0 {
		return diag.List{cfgWarning(field, fmt.Sprintf("instance name %q is accepted by nfd-master, but the annotations it names (%s.nfd.node.kubernetes.io/...) are not valid: %s", instance, instance, strings.Join(errs, "; ")))}
	}
	return nil
}

// NewSet returns an empty object set that reads objects as the settings
// say.
func (s Settings) NewSet() *objects.Set {
	return &objects.Set{NoOpenShiftAlias: !s.OpenShiftAlias, StrictFieldValidation: s.StrictFieldValidation}
}

// The values of the nodeOutput setting.
const (
	// NodeOutputPreview writes Nodes as nfd-master leaves them: existing
	// Nodes patched in place, new ones as local-config previews.
	NodeOutputPreview = "preview"
	// NodeOutputApply writes every Node as only what NFD owns on it, for
	// kubectl apply --server-side.
	NodeOutputApply = "apply"
	// NodeOutputLabels writes no Node: what each node gets from NFD is
	// an info result (nfd-fn render --output labels prints it as a table).
	NodeOutputLabels = "labels"
)
