// Package featuregate is a small registry of feature gates parsed as
// nfd-master parses its -feature-gates flag (NFD's own
// pkg/utils/featuregate, the same in every release from v0.16 to v0.19):
// every gate has a default, a maturity (Alpha, Beta, GA, Deprecated) and
// may be locked to its default. Unlike Kubernetes' component-base it knows
// no AllAlpha or AllBeta: nfd-master refuses to start on a gate it does
// not know ("unrecognized feature gate"), those two included, and on a
// locked gate set against its default.
//
// It is written here rather than taken from k8s.io/component-base, whose
// gates differ (AllAlpha, AllBeta) and which brings the component-base
// metrics stack and klog with it for a table of three gates.
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

// Set parses "Name=bool,Name=bool" and applies it, as nfd-master does:
// an unknown gate (AllAlpha and AllBeta included) and a locked gate set
// away from its default are errors, for nfd-master refuses to start on
// them; setting a GA or deprecated gate is a warning. The unknown gates
// are one error, however many (naming the first few), so that the cost
// stays linear in the number of entries.
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
	var unknown []string
	for _, name := range sortedNames(settings) {
		if _, ok := g.known[name]; !ok {
			unknown = append(unknown, name)
			continue
		}
		problems = append(problems, g.setOne(name, settings[name])...)
	}
	if len(unknown) > 0 {
		problems = append(problems, g.unknownError(unknown))
	}
	return problems
}

// shownUnknown is how many unknown gates an error names.
const shownUnknown = 3

// unknownError is the one error about the unknown gates (sorted): the
// first with a did-you-mean, a few more by name, and how many in all.
func (g *Gates) unknownError(unknown []string) diag.Diagnostic {
	msg := fmt.Sprintf("unrecognized feature gate %q", unknown[0])
	if best := suggest.Closest(unknown[0], sortedNames(g.known)); best != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", best)
	}
	if n := len(unknown); n > 1 {
		more := unknown[1:min(n, shownUnknown)]
		msg += fmt.Sprintf(", and %d more (%s", n-1, strings.Join(quoted(more), ", "))
		if n > shownUnknown {
			msg += ", ..."
		}
		msg += ")"
	}
	return gateError(msg + ": nfd-master refuses to start on a gate it does not know, AllAlpha and AllBeta included; it knows " + strings.Join(sortedNames(g.known), ", "))
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}

func (g *Gates) setOne(name string, v bool) diag.List {
	s := g.known[name]
	if s.LockToDefault && v != s.Default {
		msg := fmt.Sprintf("cannot set feature gate %s to %v, it is locked to %v: nfd-master refuses to start", name, v, s.Default)
		if name == NodeFeatureAPI {
			// v0.16 has it beta, and off means gRPC from nfd-worker.
			msg += " (from v0.17; v0.16's nfd-master would read features over gRPC instead of NodeFeature objects, which nfd-fn does not model)"
		}
		return diag.List{gateError(msg)}
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

// KnownList lists the known gates with their defaults and maturity, for
// error messages and help.
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
