package discover

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"maps"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Labeler recomputes the labels nfd-worker publishes in a NodeFeature's
// spec.labels from the features the NodeFeature carries, as the worker of
// one release would with one configuration: what a node would publish
// once a worker configuration change rolls out. It reads no host: the
// built-in sources' labels (cpu, kernel, memory, network, pci, storage,
// system, usb), the local source's (from local.label) and the custom
// source's (the two static rules and sources.custom) come from the
// features alone. Make one with NewLabeler; it is safe for concurrent use.
type Labeler struct {
	e *env
	// sources are the enabled label sources, in nfd-worker's merge order.
	sources []string
	// claimed are the labels the custom rules of the configuration (and of
	// ClaimLabelsOf's) name literally: a published one they no longer
	// produce is dropped, not kept as unexplained.
	claimed map[string]bool
	// features are the features the label sources read, for lean reading;
	// nil when a custom rule may read any.
	features []string
	// hybridCPU: the release publishes cpu-cpu_atom and cpu-cpu_core,
	// from a host file the snapshot does not show.
	hybridCPU bool
	// withheld are the features of the feature sources core.featureSources
	// leaves out, as noPublishFeatures patterns (withheldSources).
	withheld []string
}

// NewLabeler reads a worker configuration (as Options.WorkerConfig; empty
// is nfd-worker's defaults) for the nfd-worker release nfdVersion (as
// Options.NFDVersion). It returns the configuration's warnings, as
// Discover reports them; an error is a configuration nfd-worker would
// refuse to start with.
func NewLabeler(config []byte, nfdVersion string) (*Labeler, []string, error) {
	rel, err := resolveRelease(nfdVersion)
	if err != nil {
		return nil, nil, err
	}
	cfg, warnings, err := parseWorkerConfig(config, rel, false)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing worker config: %w", err)
	}
	// The hybrid-CPU labels come from a file of the host (cpuLabels): they
	// are kept as published.
	hybrid := rel.hybridCPULabels
	rel.hybridCPULabels = false
	sel, _ := selectSources(Options{}, cfg)
	l := &Labeler{e: &env{rel: rel, cfg: cfg, offline: true, legacyKconfig: &kconfigStore{}, customRules: configuredRules(cfg), checked: &checkedLabels{}},
		sources: labelOrder(sel.labels), claimed: map[string]bool{}, hybridCPU: hybrid, withheld: withheldSources(sel.features)}
	for _, r := range staticCustomRules() {
		l.claim(r)
	}
	for _, r := range cfg.Sources.Custom {
		l.claim(r.toRule())
	}
	l.features = labelFeatures(cfg)
	return l, warnings, nil
}

// claim records the labels a custom rule names literally.
func (l *Labeler) claim(r *v1alpha1.Rule) {
	for k := range r.Labels {
		l.claimed[k] = true
	}
}

// ClaimLabelsOf makes the labels other's custom rules name count as this
// configuration's to produce: when two configurations are compared, a
// custom label the other one made and this one does not is dropped here,
// not kept as one the snapshot cannot explain.
func (l *Labeler) ClaimLabelsOf(other *Labeler) {
	maps.Copy(l.claimed, other.claimed)
}

// FeatureNames adds the features the label sources read to names; it
// reports false when every feature may be read (a custom rule of the
// configuration), names being then incomplete.
func (l *Labeler) FeatureNames(names map[string]bool) bool {
	if l.features == nil {
		return false
	}
	for _, f := range l.features {
		names[f] = true
	}
	return true
}

// labelFeatures are the features the label sources of cfg read; nil when
// the configuration has custom rules, which may read any.
func labelFeatures(cfg workerConfig) []string {
	if len(cfg.Sources.Custom) > 0 {
		return nil
	}
	out := []string{"kernel.loadedmodule"} // the static RDMA rule
	for _, in := range inputsOfSources {
		out = append(out, in.features...)
	}
	return out
}

// sourceInput is what one label source reads of the features: every
// feature it may read, and the one whose absence means the snapshot does
// not carry the source's data (nfd-worker always publishes it when the
// source ran).
type sourceInput struct {
	source   string
	needs    string
	features []string
}

// inputsOfSources lists the inputs of the label sources that read
// features.
var inputsOfSources = []sourceInput{
	{"cpu", "cpu.cpuid", []string{"cpu.cpuid", "cpu.model", "cpu.cstate", "cpu.pstate", "cpu.security", "cpu.sst", "cpu.topology", "cpu.coprocessor"}},
	{"kernel", "kernel.version", []string{"kernel.version", "kernel.config", "kernel.selinux"}},
	{"memory", "memory.nv", []string{"memory.numa", "memory.swap", "memory.nv"}},
	{"network", "network.device", []string{"network.device"}},
	{"pci", "pci.device", []string{"pci.device"}},
	{"storage", "storage.block", []string{"storage.block"}},
	{"system", "system.osrelease", []string{"system.osrelease"}},
	{"usb", "usb.device", []string{"usb.device"}},
	{"local", "local.label", []string{"local.label"}},
}

// Publish is the NodeFeature spec nfd-worker would publish with the
// configuration, from the spec it published (see Labels):
// core.noPublishFeatures applied to its features, and its labels
// recomputed. The spec given is not modified.
func (l *Labeler) Publish(spec *v1alpha1.NodeFeatureSpec) (*v1alpha1.NodeFeatureSpec, diag.List) {
	return l.publish(spec, nil)
}

// publish is Publish, sharing source labels with the other configuration
// of a pair through sh (nil: none).
func (l *Labeler) publish(spec *v1alpha1.NodeFeatureSpec, sh *sourceShare) (*v1alpha1.NodeFeatureSpec, diag.List) {
	// The sources core.featureSources leaves out discover nothing, for
	// the label sources and the custom rules alike; noPublishFeatures
	// withholds features only once the labels are made.
	features := spec.Features
	removeNoPublishFeatures(&features, l.withheld)
	labels, notes := l.labels(&features, spec.Labels, sh)
	out := &v1alpha1.NodeFeatureSpec{Features: features, Labels: labels}
	if len(labels) == 0 {
		out.Labels = nil
	}
	removeNoPublishFeatures(&out.Features, l.e.cfg.Core.NoPublishFeatures)
	return out, notes
}

// Labels recomputes spec.labels from f. published (the labels nfd-worker
// published with f) fills what f cannot tell, each time with a note (an
// info diagnostic whose Field is the source): the labels of a source
// whose feature the snapshot does not carry (core.noPublishFeatures, a
// source left out of core.featureSources), kept as published; and the
// published labels no source of the recompute explains (custom.d rules,
// features.d hooks, which live on the host), kept too. The notes name no
// node, so that a fleet's fold into one per cause. The hybrid-CPU labels
// of v0.19 (cpu-cpu_atom, cpu-cpu_core) come from a host file and are
// kept as published, without a note.
func (l *Labeler) Labels(f *v1alpha1.Features, published map[string]string) (map[string]string, diag.List) {
	return l.labels(f, published, nil)
}

// labels is Labels, sharing source labels through sh (nil: none).
func (l *Labeler) labels(f *v1alpha1.Features, published map[string]string, sh *sourceShare) (map[string]string, diag.List) {
	e := *l.e
	e.legacyKconfig = &kconfigStore{m: legacyKconfig(f.Attributes["kernel.config"].Elements)}
	labels := map[string]string{}
	var notes diag.List
	gaps := map[string]string{}
	for _, in := range inputsOfSources {
		if _, ok := featureOf(f, in.needs); !ok && slices.Contains(l.sources, in.source) && l.labelsFrom(in.source) {
			gaps[in.source] = in.needs
		}
	}
	for _, n := range l.sources {
		// The collector's warnings (a features.d label nfd-worker ignores)
		// are the worker's on every run, not news of the recompute.
		c := &collector{source: n}
		if _, gap := gaps[n]; !gap && l.labelsFrom(n) {
			sh.publishSource(labels, n, func(into map[string]string) { publishSource(into, n, sourceLabels(n, &e, *f, c), &e, c) })
		}
	}
	if l.hybridCPU && slices.Contains(l.sources, "cpu") && l.labelsFrom("cpu") {
		keepPublished(labels, published, func(k string) bool { return hybridCPULabel(k) && l.whitelisted(k) })
	}
	for _, n := range sortedKeys(gaps) {
		if kept := keepPublished(labels, published, func(k string) bool { return sourceOfLabel(k) == n && l.whitelisted(k) }); len(kept) > 0 {
			notes = append(notes, labelNote(n, fmt.Sprintf("the snapshot has no %s feature (core.noPublishFeatures or core.featureSources left it out), so the %s labels nfd-worker published are kept, not recomputed", gaps[n], n)))
		}
	}
	unexplained := func(k string) bool { return sourceOfLabel(k) == "" && !l.claimed[k] && l.whitelisted(k) }
	if kept := keepPublished(labels, published, unexplained); len(kept) > 0 {
		notes = append(notes, labelNote("custom", fmt.Sprintf("%s kept as published: they come from no built-in source nor the configuration's custom rules (custom.d files and features.d hooks are on the host, not in the snapshot): %s",
			pluralLabels(len(kept)), strings.Join(kept, ", "))))
	}
	return labels, notes
}

// DroppedFeatures are the features the configuration leaves out of what
// nfd-worker publishes, as patterns: core.noPublishFeatures, and the
// features of the sources core.featureSources leaves out ("pci.*").
// Publish removes them (master.FeatureDropper).
func (l *Labeler) DroppedFeatures() []string {
	return append(slices.Clip(l.e.cfg.Core.NoPublishFeatures), l.withheld...)
}

// whitelisted applies core.labelWhiteList to a published label, as
// nfd-worker applies it to the name after the prefix.
func (l *Labeler) whitelisted(name string) bool {
	if _, short, ok := strings.Cut(name, "/"); ok {
		name = short
	}
	return l.e.cfg.labelWhiteList.MatchString(name)
}

// featureOf reports whether f has a feature of that name, of any type.
func featureOf(f *v1alpha1.Features, name string) (string, bool) {
	if _, ok := f.Flags[name]; ok {
		return "flag", true
	}
	if _, ok := f.Attributes[name]; ok {
		return "attribute", true
	}
	if _, ok := f.Instances[name]; ok {
		return "instance", true
	}
	return "", false
}

// keepPublished copies into labels the published labels keep selects that
// labels lacks, returning their names, sorted.
func keepPublished(labels, published map[string]string, keep func(string) bool) []string {
	var kept []string
	for k, v := range published {
		if _, ok := labels[k]; !ok && keep(k) {
			labels[k] = v
			kept = append(kept, k)
		}
	}
	slices.Sort(kept)
	return kept
}

// sourceOfLabel is the built-in source a published label name comes from
// (feature.node.kubernetes.io/<source>-...), or "".
func sourceOfLabel(name string) string {
	rest, ok := strings.CutPrefix(name, v1alpha1.FeatureLabelNs+"/")
	if !ok {
		return ""
	}
	src, _, ok := strings.Cut(rest, "-")
	if !ok || src == "local" || src == "custom" || builtinKinds[src]&labelKind == 0 {
		return ""
	}
	return src
}

// builtinKinds is sourceKinds, made once for sourceOfLabel.
var builtinKinds = sourceKinds()

// hybridCPULabel reports the cpu-cpu_atom and cpu-cpu_core labels.
func hybridCPULabel(name string) bool {
	return name == v1alpha1.FeatureLabelNs+"/cpu-cpu_atom" || name == v1alpha1.FeatureLabelNs+"/cpu-cpu_core"
}

// legacyKconfig is the kernel config as the kernel source keeps it for
// its labels (parseKconfig): "y" and "m" read "true", other values as in
// kernel.config.
func legacyKconfig(real map[string]string) map[string]string {
	out := make(map[string]string, len(real))
	for k, v := range real {
		if v == "y" || v == "m" {
			v = "true"
		}
		out[k] = v
	}
	return out
}

// labelNote is an info diagnostic of the recompute about one source.
func labelNote(source, msg string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Info, Check: "worker-labels-kept", Field: source, Message: msg}
}

func pluralLabels(n int) string {
	if n == 1 {
		return "1 label"
	}
	return fmt.Sprintf("%d labels", n)
}

// Settings are the configuration's settings that shape what the worker
// publishes, by their path in the configuration, each written as a short
// value ("[vendor device]"), for telling two configurations apart.
func (l *Labeler) Settings() map[string]string {
	c := &l.e.cfg
	list := func(l []string) string { return "[" + strings.Join(l, " ") + "]" }
	return map[string]string{
		"core.featureSources":                  list(c.Core.FeatureSources),
		"core.labelSources":                    list(l.sources),
		"core.labelWhiteList":                  fmt.Sprintf("%q", c.labelWhiteList.String()),
		"core.noPublishFeatures":               list(c.Core.NoPublishFeatures),
		"sources.cpu.cpuid.attributeBlacklist": list(c.Sources.CPU.Cpuid.AttributeBlacklist),
		"sources.cpu.cpuid.attributeWhitelist": list(c.Sources.CPU.Cpuid.AttributeWhitelist),
		"sources.kernel.configOpts":            list(c.Sources.Kernel.ConfigOpts),
		"sources.pci.deviceClassWhitelist":     list(c.Sources.PCI.DeviceClassWhitelist),
		"sources.pci.deviceLabelFields":        list(labelFields(c.Sources.PCI.DeviceLabelFields, pciLabelAttrs(), defaultPCILabelFields())),
		"sources.usb.deviceClassWhitelist":     list(c.Sources.USB.DeviceClassWhitelist),
		"sources.usb.deviceLabelFields":        list(labelFields(c.Sources.USB.DeviceLabelFields, usbLabelAttrs(), defaultUSBLabelFields())),
		"sources.custom":                       customSummary(c.Sources.Custom),
	}
}

// customSummary tells custom rule lists apart: their count and their
// content's digest.
func customSummary(rules []ruleConfig) string {
	raw, _ := json.Marshal(rules)
	return fmt.Sprintf("%d rules (%08x)", len(rules), crc32.ChecksumIEEE(raw))
}
