package config

// The Nova settings of the functionConfig: reading, defaulting and
// validating the nova* keys.

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/nova"
)

// NovaInventoryDefaults is the typed form of novaInventoryDefaults: fields
// set on every resource class nfd-fn writes. In a ConfigMap it is written
// reserved=0,min_unit=1,allocation_ratio=1.5.
type NovaInventoryDefaults struct {
	Reserved *int64 `json:"reserved,omitempty"`
	MinUnit  *int64 `json:"min_unit,omitempty"`
	MaxUnit  *int64 `json:"max_unit,omitempty"`
	StepSize *int64 `json:"step_size,omitempty"`
	// AllocationRatio is a decimal number as a string ("1.5").
	AllocationRatio string `json:"allocation_ratio,omitempty"`
}

// NovaSettings is the resolved Nova output configuration.
type NovaSettings struct {
	// Enabled writes the provider config (novaProviderConfig).
	Enabled bool
	// Path is where it goes in the package (novaProviderConfigPath).
	Path string
	// Mapping selects the traits and sets the inventory defaults.
	Mapping nova.MapOptions
	// Capture, when set, receives the file written (nfd-fn render
	// --output nova).
	Capture *[]byte
}

func (d *NovaInventoryDefaults) intField(name string) **int64 {
	switch name {
	case "reserved":
		return &d.Reserved
	case "min_unit":
		return &d.MinUnit
	case "max_unit":
		return &d.MaxUnit
	case "step_size":
		return &d.StepSize
	}
	return nil
}

// resolveNova validates the Nova options.
func (fc *FunctionConfig) resolveNova() (NovaSettings, diag.List) {
	ns := NovaSettings{Path: NovaDefaultPath}
	var problems diag.List
	setBool(&ns.Enabled, fc.NovaProviderConfig)
	if p := fc.NovaProviderConfigPath; p != "" {
		if err := checkPackagePath(p); err != nil {
			problems = append(problems, cfgError(fc.field("novaProviderConfigPath"), err.Error()))
		} else {
			ns.Path = p
		}
	}
	if fc.NovaTraitLabels != "" {
		re, err := regexp.Compile(fc.NovaTraitLabels)
		if err != nil {
			problems = append(problems, cfgError(fc.field("novaTraitLabels"), fmt.Sprintf("invalid regexp: %v", err)))
		} else {
			ns.Mapping.TraitLabels = re
		}
	}
	if d := fc.NovaInventoryDefaults; d != nil {
		var more diag.List
		ns.Mapping.Defaults, more = fc.inventoryDefaults(d)
		problems = append(problems, more...)
	}
	return ns, problems
}

func (fc *FunctionConfig) inventoryDefaults(d *NovaInventoryDefaults) (nova.InventoryDefaults, diag.List) {
	field := func(name string) string {
		if fc.Kind == ConfigKind {
			return "novaInventoryDefaults." + name
		}
		return "data.novaInventoryDefaults"
	}
	out := nova.InventoryDefaults{Reserved: d.Reserved, MinUnit: d.MinUnit, MaxUnit: d.MaxUnit, StepSize: d.StepSize}
	var problems diag.List
	if d.AllocationRatio != "" {
		f, err := strconv.ParseFloat(d.AllocationRatio, 64)
		if err != nil {
			problems = append(problems, cfgError(field("allocation_ratio"), fmt.Sprintf("allocation_ratio %q is not a number", d.AllocationRatio)))
		} else {
			out.AllocationRatio = &f
		}
	}
	bad := out.Check()
	for _, name := range []string{"reserved", "min_unit", "max_unit", "step_size", "allocation_ratio"} {
		if err := bad[name]; err != nil {
			problems = append(problems, cfgError(field(name), "novaInventoryDefaults: "+err.Error()))
		}
	}
	if len(problems) > 0 {
		return nova.InventoryDefaults{}, problems
	}
	return out, nil
}

// checkPackagePath accepts a relative, clean path to a YAML file.
func checkPackagePath(p string) error {
	switch {
	case path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("%q must be a clean path relative to the package, e.g. %s", p, NovaDefaultPath)
	case !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml"):
		return fmt.Errorf("%q must name a .yaml file", p)
	}
	return nil
}

// NovaDefaultPath is where the generated provider config ConfigMap goes in
// the package by default.
const NovaDefaultPath = "nova/provider-config.yaml"
