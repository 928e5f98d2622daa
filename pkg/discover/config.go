package discover

import (
	"errors"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// workerConfig is the nfd-worker v0.19 configuration file
// (pkg/nfd-worker/nfd-worker.go NFDConfig), typed as nfd-worker types it
// so that sigs.k8s.io/yaml reads it the same way: struct fields match
// case-insensitively (encoding/json), the sources section is a map keyed
// by exact source name, scalars are resolved as YAML 1.1 and turned into
// strings where the field is a string ("0300" becomes "192"), and a field
// whose value does not fit its type fails the whole file, as it stops
// nfd-worker. Unknown fields are ignored (and reported as warnings by
// parseWorkerConfig).
type workerConfig struct {
	Core    coreConfig    `json:"core"`
	Sources sourcesConfig `json:"sources"`
	// labelWhiteList is Core.LabelWhiteList compiled.
	labelWhiteList *regexp.Regexp
}

// coreConfig is the "core" section of the worker configuration. Klog,
// noOwnerRefs, ownerRefs and sleepInterval do not change the object's spec
// but are decoded and checked: a bad value stops nfd-worker.
type coreConfig struct {
	Klog           map[string]string `json:"klog"`
	LabelWhiteList regexpValue       `json:"labelWhiteList"`
	NoPublish      bool              `json:"noPublish"`
	NoOwnerRefs    bool              `json:"noOwnerRefs"`
	OwnerRefs      *ownerRefSources  `json:"ownerRefs"`
	FeatureSources []string          `json:"featureSources"`
	LabelSources   []string          `json:"labelSources"`
	Sources        *[]string         `json:"sources"`
	// NoPublishFeatures are feature keys ("pci.device", "pci.*") left out
	// of the published object after the labels were made.
	NoPublishFeatures []string      `json:"noPublishFeatures"`
	SleepInterval     durationValue `json:"sleepInterval"`
}

// sourcesConfig is the "sources" section: the settings of the configurable
// sources (cpu, kernel, pci, usb, custom, local and fake; local has no
// settings in v0.19). nfd-worker keeps it as
// a Go map keyed by source name, so "PCI" or "Custom" is not "pci" or
// "custom": such a section is ignored (see UnmarshalJSON).
type sourcesConfig struct {
	CPU    cpuConfig    `json:"cpu"`
	Kernel kernelConfig `json:"kernel"`
	PCI    deviceConfig `json:"pci"`
	USB    deviceConfig `json:"usb"`
	Custom []ruleConfig `json:"custom"`
	Local  struct{}     `json:"local"`
	Fake   fakeConfig   `json:"fake"`
}

// cpuConfig is sources.cpu.
type cpuConfig struct {
	Cpuid struct {
		// AttributeBlacklist hides cpuid flags from labels (not features).
		AttributeBlacklist []string `json:"attributeBlacklist"`
		// AttributeWhitelist, when not empty, replaces the blacklist: only
		// these flags become labels.
		AttributeWhitelist []string `json:"attributeWhitelist"`
	} `json:"cpuid"`
}

// kernelConfig is sources.kernel.
type kernelConfig struct {
	// KconfigFile is read before the usual kernel config locations; nfd-fn
	// reads it below the host root.
	KconfigFile string `json:"kconfigFile"`
	// ConfigOpts are the kernel config options that become labels.
	ConfigOpts []string `json:"configOpts"`
}

// deviceConfig is sources.pci and sources.usb.
type deviceConfig struct {
	// DeviceClassWhitelist lists class-code prefixes that get labels.
	DeviceClassWhitelist []string `json:"deviceClassWhitelist"`
	// DeviceLabelFields are the attributes joined into the label name.
	DeviceLabelFields []string `json:"deviceLabelFields"`
}

// fakeConfig is sources.fake, the settings of the test source nfd-worker
// registers too (src_fake.go).
type fakeConfig struct {
	Labels            map[string]string   `json:"labels"`
	FlagFeatures      []string            `json:"flagFeatures"`
	AttributeFeatures map[string]string   `json:"attributeFeatures"`
	InstanceFeatures  []map[string]string `json:"instanceFeatures"`
}

// defaultWorkerConfig returns nfd-worker's built-in defaults.
func defaultWorkerConfig() workerConfig {
	var c workerConfig
	c.Core.LabelWhiteList = regexpValue{re: regexp.MustCompile("")}
	c.Core.FeatureSources = []string{"all"}
	c.Core.LabelSources = []string{"all"}
	c.Sources.CPU.Cpuid.AttributeBlacklist = []string{
		"AVX10", "BMI1", "BMI2", "CLMUL", "CMOV", "CX16", "ERMS", "F16C", "HTT", "LZCNT", "MMX",
		"MMXEXT", "NX", "POPCNT", "RDRAND", "RDSEED", "RDTSCP", "SGX", "SGXLC", "SSE", "SSE2",
		"SSE3", "SSE4", "SSE42", "SSSE3", "TDX_GUEST",
	}
	c.Sources.Kernel.ConfigOpts = []string{"NO_HZ", "NO_HZ_IDLE", "NO_HZ_FULL", "PREEMPT"}
	c.Sources.PCI = deviceConfig{DeviceClassWhitelist: []string{"03", "0b40", "12"}, DeviceLabelFields: defaultPCILabelFields()}
	c.Sources.Fake = defaultFakeConfig()
	c.Sources.USB = deviceConfig{DeviceClassWhitelist: []string{"0e", "ef", "fe", "ff"}, DeviceLabelFields: defaultUSBLabelFields()}
	return c
}

// parseWorkerConfig parses an nfd-worker configuration file over the
// defaults (empty data gives the defaults): the configuration itself, or
// the ConfigMap or Helm values holding it (FindWorkerConfig). Anything
// nfd-worker would fail on is an error, and so is a file that is not a
// configuration; what it would ignore or read otherwise are warnings
// (CheckWorkerConfig's problems). With confine, no error or warning
// quotes the file.
func parseWorkerConfig(data []byte, rel release, confine bool) (workerConfig, []string, error) {
	c := defaultWorkerConfig()
	f, err := FindWorkerConfig(data)
	if err != nil {
		return c, nil, err
	}
	var warnings, refusals []string
	for _, p := range f.check(&c, rel) {
		text := p.String()
		if confine {
			text = p.Brief()
		}
		if p.Kind == Refused {
			refusals = append(refusals, text)
		} else {
			warnings = append(warnings, text)
		}
	}
	if len(refusals) > 0 {
		return c, nil, errors.New(strings.Join(refusals, "; "))
	}
	if c.Core.Sources != nil {
		c.Core.LabelSources = *c.Core.Sources
	}
	c.labelWhiteList = c.Core.LabelWhiteList.re
	return c, warnings, nil
}

// foreignKeys reports a document that is a mapping none of whose keys
// nfd-worker's configuration knows or is close to one, and how many keys
// it has.
func foreignKeys(doc *yaml.Node, rel release) (int, bool) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode || len(root.Content) == 0 {
		return 0, false
	}
	known := workerConfigShape(rel).fields
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i].Value
		if _, ok := lookupField(known, k); ok || suggest.Closest(k, sortedKeys(known)) != "" || isSourceName(k) {
			return 0, false // a configuration, or one with a misspelt or misplaced key
		}
	}
	return len(root.Content) / 2, true
}

// isSourceName reports whether key names a source in any case: a
// source's section written at the top level (custom: instead of
// sources.custom) is a configuration with a misplaced key.
func isSourceName(key string) bool {
	for _, n := range SourceNames() {
		if strings.EqualFold(n, key) {
			return true
		}
	}
	return false
}

// parseCustomFile decodes a custom.d file as nfd-worker v0.19 does, with
// sigs.k8s.io/yaml UnmarshalStrict into a list of rules: a syntax error, a
// duplicate key, a document that is not a list of rules or an unknown field
// in a rule, a matchAny element or a matcher term (a legacy matchOn rule, a
// misspelt matchFeatures) rejects the whole file. Inside an expression,
// unknown fields are ignored, as nfd-worker's own expression decoder
// ignores them.
func parseCustomFile(data []byte) ([]ruleConfig, error) {
	var rules []ruleConfig
	if err := sigsyaml.UnmarshalStrict(data, &rules); err != nil {
		return nil, err
	}
	return rules, nil
}
