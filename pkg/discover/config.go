package discover

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// workerConfig is the part of the nfd-worker configuration file that
// discovery honours. Unknown fields are ignored, as nfd-worker does.
type workerConfig struct {
	Core    coreConfig    `json:"core"`
	Sources sourcesConfig `json:"sources"`
	// labelWhiteList is Core.LabelWhiteList compiled.
	labelWhiteList *regexp.Regexp
}

// coreConfig is the "core" section of the worker configuration.
type coreConfig struct {
	LabelWhiteList string    `json:"labelWhiteList"`
	FeatureSources []string  `json:"featureSources"`
	LabelSources   []string  `json:"labelSources"`
	Sources        *[]string `json:"sources"`
}

// sourcesConfig is the "sources" section of the worker configuration.
type sourcesConfig struct {
	CPU    cpuConfig    `json:"cpu"`
	Kernel kernelConfig `json:"kernel"`
	PCI    deviceConfig `json:"pci"`
	USB    deviceConfig `json:"usb"`
	Custom []customRule `json:"custom"`
}

// cpuConfig is sources.cpu.
type cpuConfig struct {
	Cpuid struct {
		AttributeBlacklist []string `json:"attributeBlacklist"`
		AttributeWhitelist []string `json:"attributeWhitelist"`
	} `json:"cpuid"`
}

// kernelConfig is sources.kernel.
type kernelConfig struct {
	KconfigFile string   `json:"kconfigFile"`
	ConfigOpts  []string `json:"configOpts"`
}

// deviceConfig is sources.pci and sources.usb.
type deviceConfig struct {
	DeviceClassWhitelist []string `json:"deviceClassWhitelist"`
	DeviceLabelFields    []string `json:"deviceLabelFields"`
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
	c.Sources.PCI = deviceConfig{DeviceClassWhitelist: []string{"03", "0b40", "12"}, DeviceLabelFields: []string{"class", "vendor"}}
	c.Sources.USB = deviceConfig{DeviceClassWhitelist: []string{"0e", "ef", "fe", "ff"}, DeviceLabelFields: []string{"class", "vendor", "device"}}
	return c
}

// parseWorkerConfig parses an nfd-worker configuration file over the
// defaults. Empty data gives the defaults.
func parseWorkerConfig(data []byte) (workerConfig, error) {
	c := defaultWorkerConfig()
	if len(strings.TrimSpace(string(data))) > 0 {
		js, err := yaml.YAMLToJSON(data)
		if err != nil {
			return c, err
		}
		if err := json.Unmarshal(js, &c); err != nil {
			return c, err
		}
	}
	if c.Core.Sources != nil {
		c.Core.LabelSources = *c.Core.Sources
	}
	re, err := regexp.Compile(c.Core.LabelWhiteList)
	if err != nil {
		return c, fmt.Errorf("core.labelWhiteList: %w", err)
	}
	c.labelWhiteList = re
	return c, nil
}

// parseCustomRules parses a list of custom rules (a custom.d file).
func parseCustomRules(data []byte) ([]customRule, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var rules []customRule
	if err := json.Unmarshal(js, &rules); err != nil {
		return nil, err
	}
	return rules, nil
}
