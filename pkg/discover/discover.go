package discover

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// Object metadata written on the discovered NodeFeature.
const (
	// VersionAnnotation records the nfd-fn version that made the object; it
	// is the annotation nfd-fn puts on the Nodes it writes, in nfd-fn's own
	// domain.
	VersionAnnotation = version.Annotation
	// DefaultNamespace is nfd's namespace.
	DefaultNamespace = "node-feature-discovery"
	// DefaultSourceTimeout is Options.SourceTimeout's default.
	DefaultSourceTimeout = 10 * time.Second
	// featuresDirRel is the features.d directory below the host root.
	featuresDirRel = "etc/kubernetes/node-feature-discovery/features.d"
	// customDirRel is the custom.d rules directory below the host root.
	customDirRel = "etc/kubernetes/node-feature-discovery/custom.d"
)

// Options control a discovery run.
type Options struct {
	// HostRoot is the host root file system ("/" by default); sys/, proc/,
	// etc/, boot/, lib/ and usr/ are read under it, every symlink resolved
	// as if HostRoot were "/".
	HostRoot string
	// Confine keeps every path of the options inside HostRoot and every
	// file's contents out of the warnings, for input nfd-fn did not write
	// (a ResourceList's functionConfig): FeaturesDir and WorkerConfigPath
	// name paths below HostRoot (a leading "/" is HostRoot), and a warning
	// about a file says where, never what it holds.
	Confine bool
	// FeaturesDir is the features.d directory, by default
	// etc/kubernetes/node-feature-discovery/features.d below HostRoot.
	// Without Confine it is a path of this machine, which must lie inside
	// HostRoot; either way it is read through the host root.
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
	// WorkerConfig is an nfd-worker configuration file's content (YAML).
	// Its core.featureSources, core.labelSources, core.labelWhiteList,
	// core.noPublishFeatures and every v0.19 source setting (cpu, kernel,
	// pci, usb, custom) are honoured; fields nfd-worker ignores come back
	// as warnings.
	WorkerConfig []byte
	// WorkerConfigPath, when WorkerConfig is empty, names the worker
	// configuration file to read: below HostRoot with Confine, else a path
	// of this machine: the configuration, or the ConfigMap or Helm values
	// holding it (FindWorkerConfig). Only a regular file is read (symlinks
	// followed); one that does not exist, or is not a configuration, is an
	// error. Unset, nfd-worker's default file is read below HostRoot
	// (DefaultWorkerConfigPath), and nfd-worker's defaults apply when it
	// is absent.
	WorkerConfigPath string
	// NFDVersion is the nfd-worker release whose NodeFeature is reproduced:
	// "v0.17.x", "v0.18.x" or "v0.19.0" (SupportedNFDVersions);
	// DefaultNFDVersion when empty.
	NFDVersion string
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
	// SourceTimeout bounds each source: the feature sources run
	// concurrently, then the label sources do, each phase under this
	// deadline; a source that does not finish in time loses its features
	// or labels with a warning. DefaultSourceTimeout by default.
	SourceTimeout time.Duration
}

// warning is a non-fatal problem met by one source: a warning diagnostic
// whose Field is the source ("kernel", "config"), so that its Describe()
// reads "source: message".
func warning(source, msg string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Field: source, Message: msg}
}

// env is what sources read from during one run.
type env struct {
	host      host
	opts      Options
	arch      string
	rel       release
	hostCPUID bool
	cfg       workerConfig
	cpuOnce   func() CPUInfo
	// features is the host and directory of features.d.
	features hostPath
	// legacyKconfig is what the kernel source read, for its labels.
	legacyKconfig *kconfigStore
	// offline says the labels are recomputed from a snapshot's features
	// (Labeler): no host is read, so custom.d is not either.
	offline bool
	// customRules are the static and configured custom rules, compiled.
	customRules []customRule
	// checked, when set, remembers the label names and values found valid
	// (a Labeler meets the same ones on every node).
	checked *checkedLabels
}

// hostPath is a path read through a host.
type hostPath struct {
	host host
	rel  string
}

// cpuInfo returns the CPUID data, computed once per run.
func (e *env) cpuInfo() CPUInfo { return e.cpuOnce() }

// within returns a copy of e whose reads end with ctx.
func (e *env) within(ctx context.Context) *env {
	c := *e
	c.host = e.host.with(ctx)
	c.features.host = e.features.host.with(ctx)
	return &c
}

// Discover inspects the host and returns its NodeFeature with the warnings
// met on the way. The feature sources run concurrently, then the label
// sources; a source that outlives Options.SourceTimeout or ctx is left
// out with a warning and the partial object is returned. Errors are
// reserved for bad options and an unreadable or unparsable worker
// configuration.
func Discover(ctx context.Context, o Options) (*v1alpha1.NodeFeature, diag.List, error) {
	e, cfgWarnings, err := newEnv(o)
	if err != nil {
		return nil, nil, err
	}
	// A source that outlives its deadline reads from a closed root after
	// this: its reads fail, and its results are dropped anyway.
	defer e.host.close()
	sel, err := selectSources(o, e.cfg)
	if err != nil {
		return nil, nil, err
	}
	var warnings diag.List
	for _, w := range cfgWarnings {
		warnings = append(warnings, warning("config", w))
	}
	features, sw := runFeatureSources(ctx, e, sel.features)
	warnings = append(warnings, sw...)
	labels, lw := runLabelSources(ctx, e, sel.labels, features)
	warnings = append(warnings, lw...)
	if unmatched := removeNoPublishFeatures(&features, e.cfg.Core.NoPublishFeatures); len(unmatched) > 0 {
		warnings = append(warnings, warning("config", fmt.Sprintf("core.noPublishFeatures: %d pattern(s) matched no feature", len(unmatched))))
	}
	return nodeFeature(e.opts, features, labels), warnings, nil
}

// SupportedArchs are the architectures whose nfd-worker behaviour
// Discover reproduces (Options.Arch).
func SupportedArchs() []string { return []string{"amd64", "arm64"} }

// newEnv validates and defaults the options and reads and parses the
// worker config, returning its warnings.
func newEnv(o Options) (*env, []string, error) {
	if o.NodeName == "" {
		return nil, nil, errors.New("node name is required")
	}
	if why := objects.InvalidName("Node", o.NodeName); why != "" {
		// It names the NodeFeature and its file (nodefeatures/<name>.yaml).
		return nil, nil, fmt.Errorf("node name %s is not a valid Kubernetes node name: %s", objects.ShowName(o.NodeName), why)
	}
	arch, err := resolveArch(o.Arch)
	if err != nil {
		return nil, nil, err
	}
	rel, err := resolveRelease(o.NFDVersion)
	if err != nil {
		return nil, nil, err
	}
	hostCPUID := o.CPUID == nil
	o = withDefaults(o)
	if err := checkHostRoot(o.HostRoot); err != nil {
		return nil, nil, err
	}
	features, err := featuresPath(o)
	if err != nil {
		return nil, nil, err
	}
	h := newHost(o.HostRoot)
	raw, fromDefault, err := workerConfigBytes(o, h)
	if err != nil {
		h.close()
		return nil, nil, err
	}
	cfg, warnings, err := parseWorkerConfig(raw, rel, o.Confine)
	if err != nil {
		h.close()
		if fromDefault {
			return nil, nil, defaultConfigError(h, err)
		}
		return nil, nil, fmt.Errorf("parsing worker config: %w", err)
	}
	if arch != runtime.GOARCH && filepath.Clean(o.HostRoot) == "/" {
		warnings = append(warnings, fmt.Sprintf("reproducing nfd-worker on %s from the files of this %s machine", arch, runtime.GOARCH))
	}
	return &env{
		host:          h,
		opts:          o,
		arch:          arch,
		rel:           rel,
		hostCPUID:     hostCPUID,
		cfg:           cfg,
		cpuOnce:       sync.OnceValue(o.CPUID.CPUID),
		features:      hostPath{host: h, rel: features},
		legacyKconfig: &kconfigStore{},
		customRules:   configuredRules(cfg),
	}, warnings, nil
}

// checkHostRoot refuses a host root that is not a directory: discovery
// would otherwise read nothing of it and describe the machine nfd-fn runs
// on (its CPU) as the host.
func checkHostRoot(root string) error {
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("host root %q does not exist", root)
	case err != nil:
		return fmt.Errorf("host root %q: %w", root, unwrapPathError(err))
	case !fi.IsDir():
		return fmt.Errorf("host root %q is not a directory", root)
	}
	return nil
}

// featuresPath places the features.d directory below the host root: the
// default one, or FeaturesDir, which names a path below the root (a
// leading "/" is the root) with Confine, else a path of this machine that
// must lie inside the host root. Either way it is read through the host
// root, so that no symlink in it, nor the directory itself given as a
// symlink, reaches a file outside the root.
func featuresPath(o Options) (string, error) {
	switch {
	case o.FeaturesDir == "":
		return featuresDirRel, nil
	case o.Confine:
		return path.Clean("/" + filepath.ToSlash(o.FeaturesDir)), nil
	}
	root, err := filepath.Abs(o.HostRoot)
	if err != nil {
		return "", fmt.Errorf("host root %q: %w", o.HostRoot, err)
	}
	dir, err := filepath.Abs(o.FeaturesDir)
	if err != nil {
		return "", fmt.Errorf("features directory %q: %w", o.FeaturesDir, err)
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("features directory %q is outside the host root %q: name it below the host root", o.FeaturesDir, o.HostRoot)
	}
	return filepath.ToSlash(rel), nil
}

// optionPath places the worker configuration's path: below the host root
// with Confine (or when it is unset, at def), else on this machine (the
// user's own file, not the host's).
func optionPath(o Options, h host, p, def string) hostPath {
	switch {
	case p == "":
		return hostPath{host: h, rel: def}
	case o.Confine:
		return hostPath{host: h, rel: path.Clean("/" + filepath.ToSlash(p))}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	return hostPath{host: newHost("/"), rel: abs}
}

// workerConfigBytes returns the worker configuration's content: the bytes
// given, the file WorkerConfigPath names, or, with neither, nfd-worker's
// default file below the host root (readDefaultWorkerConfig, fromDefault
// true), each read as a regular file (through symlinks, such as a kubelet
// ConfigMap mount's ..data link). A file named and missing is an error:
// nfd-worker's defaults stand in only when the default file is absent.
func workerConfigBytes(o Options, h host) (b []byte, fromDefault bool, err error) {
	switch {
	case len(o.WorkerConfig) > 0:
		return o.WorkerConfig, false, nil
	case o.WorkerConfigPath == "":
		b, err := readDefaultWorkerConfig(h)
		return b, b != nil, err
	}
	p := optionPath(o, h, o.WorkerConfigPath, "")
	if p.host.dir != h.dir {
		defer p.host.close()
	}
	b, err = p.host.readFile(p.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("the nfd-worker configuration %s does not exist (with none named, nfd-fn reads nfd-worker's default, %s below the host root, and uses nfd-worker's defaults only when that is absent)",
			o.WorkerConfigPath, DefaultWorkerConfigPath)
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading the nfd-worker configuration: %w", err)
	}
	return b, false, nil
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
	if o.SourceTimeout <= 0 {
		o.SourceTimeout = DefaultSourceTimeout
	}
	return o
}

// nodeFeature wraps the features and labels in a NodeFeature object.
func nodeFeature(o Options, f v1alpha1.Features, labels map[string]string) *v1alpha1.NodeFeature {
	nf := &v1alpha1.NodeFeature{
		APIVersion: v1alpha1.APIVersion,
		Kind:       v1alpha1.KindNodeFeature,
		Metadata: v1alpha1.ObjectMeta{
			Name:        o.NodeName,
			Namespace:   o.Namespace,
			Labels:      map[string]string{v1alpha1.NodeNameLabel: o.NodeName},
			Annotations: map[string]string{VersionAnnotation: o.Version},
		},
		Spec: v1alpha1.NodeFeatureSpec{Features: f},
	}
	if len(labels) > 0 {
		nf.Spec.Labels = labels
	}
	return nf
}
