package discover

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// Object metadata written on the discovered NodeFeature.
const (
	// NodeNameLabel attaches a NodeFeature to its node.
	NodeNameLabel = "nfd.node.kubernetes.io/node-name"
	// VersionAnnotation records the nfd-fn version that made the object; it
	// is the annotation nfd-fn puts on the Nodes it writes, in nfd-fn's own
	// domain.
	VersionAnnotation = version.Annotation
	// DefaultNamespace is nfd's namespace.
	DefaultNamespace = "node-feature-discovery"
	// featuresDirRel is the features.d directory below the host root.
	featuresDirRel = "etc/kubernetes/node-feature-discovery/features.d"
	// customDirRel is the custom.d rules directory below the host root.
	customDirRel = "etc/kubernetes/node-feature-discovery/custom.d"
)

// Options control a discovery run.
type Options struct {
	// HostRoot is the host root file system ("/" by default); sys/, proc/,
	// etc/, boot/, lib/ and usr/lib/ are read under it.
	HostRoot string
	// FeaturesDir is the features.d directory, by default
	// <HostRoot>/etc/kubernetes/node-feature-discovery/features.d.
	FeaturesDir string
	// NodeName is the node name (required).
	NodeName string
	// Namespace of the NodeFeature, "node-feature-discovery" by default.
	Namespace string
	// Sources limits discovery to these sources; nil means all of
	// cpu, kernel, memory, network, pci, storage, system, usb, local, custom.
	Sources []string
	// SkipSources removes sources from the selection.
	SkipSources []string
	// WorkerConfig is an optional nfd-worker configuration file (YAML). Its
	// core.featureSources, core.labelSources, core.labelWhiteList and every
	// v0.19 source setting (cpu, kernel, pci, usb, custom) are honoured;
	// fields nfd-worker ignores come back as warnings.
	WorkerConfig []byte
	// Arch is the architecture whose nfd-worker behaviour is reproduced:
	// "amd64" (CPUID from the CPUID provider, the rest from the host root)
	// or "arm64" (everything from the host root: hwcaps from
	// proc/self/auxv or proc/cpuinfo, the main ID register from sysfs or
	// proc/cpuinfo). The default is the architecture nfd-fn runs on.
	Arch string
	// Version is the nfd-fn version written to VersionAnnotation;
	// pkg/version.Version by default.
	Version string
	// Now returns the current time, for features.d expiry; time.Now by default.
	Now func() time.Time
	// CPUID provides the processor's CPUID data; HostCPUID() by default.
	CPUID CPUIDProvider
	// Evaluator evaluates NodeFeatureRule-style custom rules; a minimal
	// built-in evaluator by default.
	Evaluator RuleEvaluator
}

// Warning is a non-fatal problem met by one source.
type Warning struct {
	// Source is the source name ("kernel", "custom", ...).
	Source string
	// Msg says what went wrong.
	Msg string
}

// String formats the warning as "source: message".
func (w Warning) String() string { return w.Source + ": " + w.Msg }

// env is what sources read from during one run.
type env struct {
	host        host
	opts        Options
	arch        string
	hostCPUID   bool
	cfg         workerConfig
	cpuOnce     func() CPUInfo
	featuresDir string
}

// cpuInfo returns the CPUID data, computed once per run.
func (e *env) cpuInfo() CPUInfo { return e.cpuOnce() }

// Discover inspects the host and returns its NodeFeature with the warnings
// met on the way. Sources run concurrently; when ctx ends before a source
// finishes, that source's features are left out with a warning and the
// partial object is returned. Errors are reserved for bad options and an
// unparsable worker configuration.
func Discover(ctx context.Context, o Options) (*v1alpha1.NodeFeature, []Warning, error) {
	e, cfgWarnings, err := newEnv(o)
	if err != nil {
		return nil, nil, err
	}
	sel, err := selectSources(o, e.cfg)
	if err != nil {
		return nil, nil, err
	}
	var warnings []Warning
	for _, w := range cfgWarnings {
		warnings = append(warnings, Warning{Source: "config", Msg: w})
	}
	features, sw := runFeatureSources(ctx, e, sel.features)
	warnings = append(warnings, sw...)
	labels, lw := createLabels(e, sel.labels, features)
	warnings = append(warnings, lw...)
	return nodeFeature(e.opts, features, labels), warnings, nil
}

// SupportedArchs are the architectures whose nfd-worker behaviour
// Discover reproduces (Options.Arch).
func SupportedArchs() []string { return []string{"amd64", "arm64"} }

// newEnv validates and defaults the options and parses the worker config,
// returning its warnings.
func newEnv(o Options) (*env, []string, error) {
	if o.NodeName == "" {
		return nil, nil, errors.New("node name is required")
	}
	arch, err := resolveArch(o.Arch)
	if err != nil {
		return nil, nil, err
	}
	hostCPUID := o.CPUID == nil
	o = withDefaults(o)
	cfg, warnings, err := parseWorkerConfig(o.WorkerConfig)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing worker config: %w", err)
	}
	if arch != runtime.GOARCH && filepath.Clean(o.HostRoot) == "/" {
		warnings = append(warnings, fmt.Sprintf("reproducing nfd-worker on %s from the files of this %s machine", arch, runtime.GOARCH))
	}
	dir := o.FeaturesDir
	if dir == "" {
		dir = filepath.Join(o.HostRoot, featuresDirRel)
	}
	return &env{
		host:        newHost(o.HostRoot),
		opts:        o,
		arch:        arch,
		hostCPUID:   hostCPUID,
		cfg:         cfg,
		cpuOnce:     sync.OnceValue(o.CPUID.CPUID),
		featuresDir: dir,
	}, warnings, nil
}

// resolveArch defaults the architecture to the running one and checks it
// is modelled.
func resolveArch(arch string) (string, error) {
	if arch == "" {
		arch = runtime.GOARCH
	}
	if !slices.Contains(SupportedArchs(), arch) {
		return "", fmt.Errorf("architecture %q is not modelled (supported: %s)", arch, strings.Join(SupportedArchs(), ", "))
	}
	return arch, nil
}

// withDefaults fills the unset options.
func withDefaults(o Options) Options {
	if o.HostRoot == "" {
		o.HostRoot = "/"
	}
	if o.Namespace == "" {
		o.Namespace = DefaultNamespace
	}
	if o.Version == "" {
		o.Version = version.Version
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CPUID == nil {
		o.CPUID = HostCPUID()
	}
	if o.Evaluator == nil {
		o.Evaluator = MinimalEvaluator{}
	}
	return o
}

// sourceResult is one finished feature source.
type sourceResult struct {
	name string
	c    *collector
}

// runFeatureSources runs the feature sources concurrently and merges their
// features in name order.
func runFeatureSources(ctx context.Context, e *env, names []string) (v1alpha1.Features, []Warning) {
	done := make(chan sourceResult, len(names))
	for _, n := range names {
		go func() { done <- runOne(e, n) }()
	}
	results := map[string]*collector{}
	var warnings []Warning
	for range names {
		select {
		case r := <-done:
			results[r.name] = r.c
		case <-ctx.Done():
			return collect(results, names, ctx.Err(), warnings)
		}
	}
	return collect(results, names, nil, warnings)
}

// collect merges finished results in name order and warns about the rest.
func collect(results map[string]*collector, names []string, ctxErr error, warnings []Warning) (v1alpha1.Features, []Warning) {
	features := newFeatures()
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	for _, n := range sorted {
		c, ok := results[n]
		if !ok {
			warnings = append(warnings, Warning{Source: n, Msg: fmt.Sprintf("did not finish: %v", ctxErr)})
			continue
		}
		mergeFeatures(&features, c.features)
		warnings = append(warnings, c.warnings...)
	}
	return features, warnings
}

// runOne runs one feature source, turning a panic into a warning.
func runOne(e *env, name string) (r sourceResult) {
	c := newCollector(name)
	r = sourceResult{name: name, c: c}
	defer func() {
		if p := recover(); p != nil {
			r.c = newCollector(name)
			r.c.warn("source failed: %v", p)
		}
	}()
	featureSourceFunc(name)(e, c)
	return r
}

// nodeFeature wraps the features and labels in a NodeFeature object.
func nodeFeature(o Options, f v1alpha1.Features, labels map[string]string) *v1alpha1.NodeFeature {
	nf := &v1alpha1.NodeFeature{
		APIVersion: "nfd.k8s-sigs.io/v1alpha1",
		Kind:       "NodeFeature",
		Metadata: v1alpha1.ObjectMeta{
			Name:        o.NodeName,
			Namespace:   o.Namespace,
			Labels:      map[string]string{NodeNameLabel: o.NodeName},
			Annotations: map[string]string{VersionAnnotation: o.Version},
		},
		Spec: v1alpha1.NodeFeatureSpec{Features: f},
	}
	if len(labels) > 0 {
		nf.Spec.Labels = labels
	}
	return nf
}
