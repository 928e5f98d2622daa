package config

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"go.yaml.in/yaml/v3"
)

// LoadSettings resolves a functionConfig (a ConfigMap or an
// NFDFunctionConfig, nil for the defaults) outside a ResourceList, for the
// command line. Problems come back as "field: message" errors; warnings
// are returned separately.
func LoadSettings(n *yaml.Node) (s Settings, errs, warnings []string) {
	s, problems := Load(n)
	for _, p := range problems {
		msg := fmt.Sprintf("%s: %s", p.Field, p.Message)
		if p.Severity == diag.Warning {
			warnings = append(warnings, msg)
		} else {
			errs = append(errs, msg)
		}
	}
	return s, errs, warnings
}
