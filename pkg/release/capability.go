package release

// Capability is something some NFD releases do and others do not. The
// table below is the one place that says which; the engine, the master,
// the functionConfig and lint ask Release.Has. What the CRDs of a release
// accept (operators, the type field, group vars) is not here: it is read
// from the release's CRDs themselves (pkg/admission).
type Capability int

// The capabilities that differ between releases.
const (
	// SprigFuncs: templates get the Sprig functions (v0.18 on); before,
	// only text/template's own, and a template calling one fails to parse.
	SprigFuncs Capability = iota
	// HostEnvFuncs: Sprig's env, expandenv and getHostByName (v0.18 only).
	HostEnvFuncs
	// TemplateSizeCap: templates larger than 64 KiB fail (v0.19 on).
	TemplateSizeCap
	// MissingFeatureFails: a matcher term on a feature the node does not
	// have fails the rule rather than not matching (v0.16).
	MissingFeatureFails
	// Restrictions: nfd-master's restrictions settings (disableLabels,
	// denyNodeFeatureLabels, ...; v0.17 on).
	Restrictions
	// AutoDefaultNs: the autoDefaultNs setting (up to v0.17).
	AutoDefaultNs
	// ResourceLabels: the resourceLabels setting, labels turned into
	// extended resources (v0.16).
	ResourceLabels
	// UnprefixedNames: with DisableAutoPrefix, unprefixed labels and
	// extended resources are kept (v0.18 on); before, rejected.
	UnprefixedNames
	// UnprefixedAnnotations: the same for annotations (v0.18 on, commit
	// dcc8e4764; not in OpenShift's fork).
	UnprefixedAnnotations
	// GroupGate: the NodeFeatureGroupAPI gate is honoured; v0.16.0-.7 and
	// v0.17.0-.2 evaluate groups whatever it says.
	GroupGate
	// GroupBackrefs: a NodeFeatureGroup rule feeds its vars back into
	// rule.matched for the group's later rules, creating the feature even
	// when it has none (v0.18 on). Before, group rules return a bool
	// only, so rule.matched does not exist for them: a term on it never
	// matches (v0.17) or fails the rule (v0.16).
	GroupBackrefs
)

// span is [From, Until) of upstream releases; a zero Until is open.
type span struct{ From, Until Version }

func (s span) has(v Version) bool {
	return !v.Less(s.From) && (s.Until == Version{} || v.Less(s.Until))
}

// table lists, for each capability, the upstream releases that have it
// (see the constants for the NFD changes behind each line).
var table = map[Capability][]span{
	SprigFuncs:            {{From: Version{18, 0}}},
	HostEnvFuncs:          {{From: Version{18, 0}, Until: Version{19, 0}}},
	TemplateSizeCap:       {{From: Version{19, 0}}},
	MissingFeatureFails:   {{Until: Version{17, 0}}},
	Restrictions:          {{From: Version{17, 0}}},
	AutoDefaultNs:         {{Until: Version{18, 0}}},
	ResourceLabels:        {{Until: Version{17, 0}}},
	UnprefixedNames:       {{From: Version{18, 0}}},
	UnprefixedAnnotations: {{From: Version{18, 0}}},
	GroupGate:             {{From: Version{16, 8}, Until: Version{17, 0}}, {From: Version{17, 3}}},
	GroupBackrefs:         {{From: Version{18, 0}}},
}

func (c Capability) in(v Version) bool {
	for _, s := range table[c] {
		if s.has(v) {
			return true
		}
	}
	return false
}

// First is the first upstream release with the capability, and whether
// any has it.
func (c Capability) First() (Version, bool) {
	for _, v := range Upstreams() {
		if c.in(v) {
			return v, true
		}
	}
	return Version{}, false
}

// Last is the last upstream release with the capability, and whether any
// has it.
func (c Capability) Last() (Version, bool) {
	all := Upstreams()
	for i := len(all) - 1; i >= 0; i-- {
		if c.in(all[i]) {
			return all[i], true
		}
	}
	return Version{}, false
}
