// Package featuregate is a small registry of feature gates following the
// Kubernetes feature-gate design: every gate has a default, a maturity
// (Alpha, Beta, GA, Deprecated) and may be locked to its default; AllAlpha
// and AllBeta switch every alpha or beta gate at once.
//
// It is written here rather than taken from k8s.io/component-base because
// that package brings the component-base metrics stack and klog with it for
// what is, for nfd-fn, a table of three gates.
package featuregate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// Maturity is the stage of a feature.
type Maturity string

// Maturity levels.
const (
	Alpha      Maturity = "ALPHA"
	Beta       Maturity = "BETA"
	GA         Maturity = ""
	Deprecated Maturity = "DEPRECATED"
)

// Spec describes one gate.
type Spec struct {
	Default       bool
	Maturity      Maturity
	LockToDefault bool
}

// Feature names known to nfd-fn.
const (
	// NodeFeatureAPI is GA and locked on in NFD v0.19.
	NodeFeatureAPI = "NodeFeatureAPI"
	// DisableAutoPrefix stops prefixing unprefixed names with
	// feature.node.kubernetes.io/ and accepts unprefixed names.
	DisableAutoPrefix = "DisableAutoPrefix"
	// NodeFeatureGroupAPI evaluates NodeFeatureGroup objects.
	NodeFeatureGroupAPI = "NodeFeatureGroupAPI"
)

// Defaults are nfd-fn's gates. NodeFeatureGroupAPI is beta (on) in nfd-fn,
// while alpha (off) in nfd-master v0.19: an offline renderer is asked for
// groups on purpose.
func Defaults() map[string]Spec {
	return map[string]Spec{
		NodeFeatureAPI:      {Default: true, Maturity: GA, LockToDefault: true},
		DisableAutoPrefix:   {Default: false, Maturity: Alpha},
		NodeFeatureGroupAPI: {Default: true, Maturity: Beta},
	}
}

// Gates is a set of known gates with their current values.
type Gates struct {
	known   map[string]Spec
	enabled map[string]bool
}

// New returns gates at their defaults.
func New(known map[string]Spec) *Gates {
	g := &Gates{known: known, enabled: map[string]bool{}}
	for name, s := range known {
		g.enabled[name] = s.Default
	}
	return g
}

// Enabled reports whether a gate is on. Unknown gates are off.
func (g *Gates) Enabled(name string) bool { return g.enabled[name] }

// Set parses "Name=bool,Name=bool" and applies it. AllAlpha and AllBeta
// apply first, then explicit gates, whatever their order in the string.
// Unknown gates and locked gates set away from their default are errors;
// setting a GA or deprecated gate is a warning.
func (g *Gates) Set(spec string) diag.List {
	var problems diag.List
	settings := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		b, err := strconv.ParseBool(strings.TrimSpace(val))
		if !ok || err != nil {
			problems = append(problems, gateError(fmt.Sprintf("invalid feature gate setting %q: want Name=true or Name=false", part)))
			continue
		}
		settings[name] = b
	}
	for _, all := range []struct {
		name string
		m    Maturity
	}{{"AllAlpha", Alpha}, {"AllBeta", Beta}} {
		if v, ok := settings[all.name]; ok {
			for n, s := range g.known {
				if s.Maturity == all.m && !s.LockToDefault {
					g.enabled[n] = v
				}
			}
			delete(settings, all.name)
		}
	}
	for _, name := range sortedNames(settings) {
		problems = append(problems, g.setOne(name, settings[name])...)
	}
	return problems
}

func (g *Gates) setOne(name string, v bool) diag.List {
	s, ok := g.known[name]
	if !ok {
		msg := fmt.Sprintf("unknown feature gate %q", name)
		if best := suggest.Closest(name, append(sortedNames(g.known), "AllAlpha", "AllBeta")); best != "" {
			msg += fmt.Sprintf(": did you mean %q?", best)
		}
		return diag.List{gateError(msg + " (the README lists the known gates)")}
	}
	if s.LockToDefault && v != s.Default {
		return diag.List{gateError(fmt.Sprintf("feature gate %s is locked to %v and cannot be set to %v", name, s.Default, v))}
	}
	g.enabled[name] = v
	switch s.Maturity {
	case GA:
		return diag.List{gateWarning(fmt.Sprintf("feature gate %s is GA and always %v; setting it will stop working in a future release", name, s.Default))}
	case Deprecated:
		return diag.List{gateWarning(fmt.Sprintf("feature gate %s is deprecated and will be removed", name))}
	}
	return nil
}

func gateError(msg string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Check: "feature-gate", Message: msg}
}

func gateWarning(msg string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Check: "feature-gate", Message: msg}
}

// KnownList lists the known gates with their defaults and maturity, plus
// AllAlpha and AllBeta, for error messages and help.
func (g *Gates) KnownList() string {
	var out []string
	for _, name := range sortedNames(g.known) {
		s := g.known[name]
		m := string(s.Maturity)
		if m == "" {
			m = "GA"
		}
		desc := fmt.Sprintf("%s=true|false (%s - default=%v", name, m, s.Default)
		if s.LockToDefault {
			desc += ", locked"
		}
		out = append(out, desc+")")
	}
	out = append(out, "AllAlpha=true|false", "AllBeta=true|false")
	return strings.Join(out, ", ")
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
