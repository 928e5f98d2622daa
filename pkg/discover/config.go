package discover

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// workerConfig is the part of the nfd-worker v0.19 configuration file that
// shapes the NodeFeature. Decoding follows nfd-worker: encoding/json field
// matching (case-insensitive), unknown fields ignored (and reported as
// warnings by parseWorkerConfig).
type workerConfig struct {
	Core    coreConfig    `json:"core"`
	Sources sourcesConfig `json:"sources"`
	// labelWhiteList is Core.LabelWhiteList compiled.
	labelWhiteList *regexp.Regexp
}

// coreConfig is the "core" section of the worker configuration
// (pkg/nfd-worker/nfd-worker.go). Klog, noOwnerRefs, ownerRefs and
// sleepInterval exist too but do not change the object's spec.
type coreConfig struct {
	LabelWhiteList string    `json:"labelWhiteList"`
	NoPublish      bool      `json:"noPublish"`
	FeatureSources []string  `json:"featureSources"`
	LabelSources   []string  `json:"labelSources"`
	Sources        *[]string `json:"sources"`
	// NoPublishFeatures are feature keys ("pci.device", "pci.*") left out
	// of the published object after the labels were made.
	NoPublishFeatures []string `json:"noPublishFeatures"`
}

// sourcesConfig is the "sources" section: the settings of the configurable
// sources (cpu, kernel, pci, usb, custom; local has none in v0.19).
type sourcesConfig struct {
	CPU    cpuConfig    `json:"cpu"`
	Kernel kernelConfig `json:"kernel"`
	PCI    deviceConfig `json:"pci"`
	USB    deviceConfig `json:"usb"`
	Custom []ruleConfig `json:"custom"`
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

// defaultWorkerConfig returns nfd-worker's built-in defaults.
func defaultWorkerConfig() workerConfig {
	var c workerConfig
	c.Core.FeatureSources = []string{"all"}
	c.Core.LabelSources = []string{"all"}
	c.Sources.CPU.Cpuid.AttributeBlacklist = []string{
		"AVX10", "BMI1", "BMI2", "CLMUL", "CMOV", "CX16", "ERMS", "F16C", "HTT", "LZCNT", "MMX",
		"MMXEXT", "NX", "POPCNT", "RDRAND", "RDSEED", "RDTSCP", "SGX", "SGXLC", "SSE", "SSE2",
		"SSE3", "SSE4", "SSE42", "SSSE3", "TDX_GUEST",
	}
	c.Sources.Kernel.ConfigOpts = []string{"NO_HZ", "NO_HZ_IDLE", "NO_HZ_FULL", "PREEMPT"}
	c.Sources.PCI = deviceConfig{DeviceClassWhitelist: []string{"03", "0b40", "12"}, DeviceLabelFields: defaultPCILabelFields()}
	c.Sources.USB = deviceConfig{DeviceClassWhitelist: []string{"0e", "ef", "fe", "ff"}, DeviceLabelFields: defaultUSBLabelFields()}
	return c
}

// parseWorkerConfig parses an nfd-worker configuration file over the
// defaults (empty data gives the defaults). Anything nfd-worker would fail
// on is an error; fields it would ignore are warnings. With confine, no
// error or warning quotes the file.
func parseWorkerConfig(data []byte, confine bool) (workerConfig, []string, error) {
	c := defaultWorkerConfig()
	var warnings []string
	if len(strings.TrimSpace(string(data))) > 0 {
		if err := decodeWorkerConfig(data, &c); err != nil {
			if confine {
				return c, nil, fmt.Errorf("not a valid nfd-worker configuration%s (details withheld: run nfd-fn discover --config on the host)", lineOf(err))
			}
			return c, nil, err
		}
		warnings = unknownConfigFields(data, confine)
	}
	if c.Core.Sources != nil {
		c.Core.LabelSources = *c.Core.Sources
	}
	re, err := regexp.Compile(c.Core.LabelWhiteList)
	if err != nil {
		if confine {
			return c, nil, errors.New("core.labelWhiteList is not a valid regular expression")
		}
		return c, nil, fmt.Errorf("core.labelWhiteList: %w", err)
	}
	c.labelWhiteList = re
	if c.Core.NoPublish {
		warnings = append(warnings, "core.noPublish is true: nfd-worker would publish nothing; nfd-fn prints the object it would have published")
	}
	warnings = append(warnings, labelFieldWarnings("sources.pci.deviceLabelFields", c.Sources.PCI.DeviceLabelFields, pciLabelAttrs(), confine)...)
	warnings = append(warnings, labelFieldWarnings("sources.usb.deviceLabelFields", c.Sources.USB.DeviceLabelFields, usbLabelAttrs(), confine)...)
	return c, warnings, nil
}

// decodeWorkerConfig decodes YAML over the defaults in c as nfd-worker's
// sigs.k8s.io/yaml Unmarshal does: duplicate keys are tolerated and
// unknown fields ignored.
func decodeWorkerConfig(data []byte, c *workerConfig) error {
	js, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(js, c)
}

// unknownConfigFields reports the keys of a worker configuration that
// nfd-worker ignores.
func unknownConfigFields(data []byte, confine bool) []string {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil
	}
	if n, foreign := foreignKeys(&doc); foreign {
		// Likely the wrong file (--config /etc/shadow): its keys are its
		// content, and are not repeated.
		return []string{fmt.Sprintf("this is not an nfd-worker configuration: none of its %d top-level keys is core or sources, "+
			"so nfd-worker would ignore all of it (the keys are not shown)", n)}
	}
	var out []string
	for _, p := range checkFields(&doc, workerConfigShape(), "") {
		if confine {
			out = append(out, fmt.Sprintf("line %d: a field nfd-worker v0.19 ignores", p.line))
		} else {
			out = append(out, p.String())
		}
	}
	return out
}

// foreignKeys reports a document that is a mapping none of whose keys
// nfd-worker's configuration knows or is close to one, and how many keys
// it has.
func foreignKeys(doc *yaml.Node) (int, bool) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode || len(root.Content) == 0 {
		return 0, false
	}
	known := workerConfigShape().fields
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i].Value
		if _, ok := lookupField(known, k); ok || suggest.Closest(k, sortedKeys(known)) != "" {
			return 0, false // a configuration, or one with a misspelt key
		}
	}
	return len(root.Content) / 2, true
}

// labelFieldWarnings reports configured device label fields nfd-worker
// ignores, and the fall back to the defaults when none is valid.
func labelFieldWarnings(field string, configured, valid []string, confine bool) []string {
	var bad []string
	good := 0
	for _, f := range configured {
		if contains(valid, f) {
			good++
		} else {
			bad = append(bad, f)
		}
	}
	var out []string
	switch {
	case len(bad) > 0 && confine:
		out = append(out, fmt.Sprintf("%s: ignoring %d invalid field(s) (valid: %s)", field, len(bad), strings.Join(valid, ", ")))
	case len(bad) > 0:
		out = append(out, fmt.Sprintf("%s: ignoring invalid fields %q (valid: %s)", field, bad, strings.Join(valid, ", ")))
	}
	if good == 0 {
		out = append(out, fmt.Sprintf("%s: no valid fields, using the defaults", field))
	}
	return out
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
