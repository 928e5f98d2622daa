package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	k8svalidation "k8s.io/apimachinery/pkg/util/validation"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// mistakes runs the checks drawn from real users' mistakes on every
// matcher term and expression (issue 27, section 2): modules matched as
// loaded that kernels usually build in, a type the operator ignores, PCI
// class values that are not class codes, and terms without expressions.
func (c *checker) mistakes() {
	for _, r := range c.allRules() {
		c.noOutputs(r)
		for _, t := range r.terms() {
			c.emptyTerm(r, t)
			if t.term.MatchExpressions == nil {
				continue
			}
			feature := strings.ToLower(t.term.Feature)
			for _, name := range slices.Sorted(maps.Keys(*t.term.MatchExpressions)) {
				e := (*t.term.MatchExpressions)[name]
				if e == nil {
					continue
				}
				field := t.field + ".matchExpressions." + name
				c.ignoredType(r, field, e)
				switch feature {
				case "kernel.loadedmodule":
					c.builtinModule(r, field, name, e)
				case "pci.device":
					switch name {
					case "class":
						c.pciClass(r, field, e)
					case "vendor", "device", "subsystem_vendor", "subsystem_device":
						c.pciID(r, field, name, e)
					}
				}
			}
		}
	}
}

// noOutputs warns about a NodeFeatureRule rule that writes nothing: no
// labels, vars, annotations, extended resources or taints, nor a template
// that could write them. nfd-master runs it to no effect (and rule.matched
// gets nothing from it).
func (c *checker) noOutputs(r ruleAt) {
	if r.ref.Kind != api.KindNodeFeatureRule || r.rejected {
		return // a rejected object's outputs may be what failed to decode
	}
	x := r.rule
	if len(x.Labels)+len(x.Vars)+len(x.Annotations)+len(x.ExtendedResources)+len(x.Taints) > 0 || x.LabelsTemplate != "" || x.VarsTemplate != "" {
		return
	}
	c.add(r.doc, r.ref, diag.Warning, "rule", r.field, false,
		fmt.Sprintf("rule %q writes nothing (no labels, vars, annotations, extendedResources, taints or templates): nfd-master runs it to no effect", x.Name))
}

// emptyTerm warns about a term with neither matchExpressions nor
// matchName (an explicit empty matchExpressions is taken as meant): it matches whenever the feature exists, which for most
// features is every node (rule.matched and a NodeFeature's own features
// aside, it is rarely what was meant).
func (c *checker) emptyTerm(r ruleAt, t termAt) {
	if t.term.MatchName != nil || t.term.MatchExpressions != nil {
		return // an explicit matchExpressions: {} says "whenever it exists"
	}
	c.add(r.doc, r.ref, diag.Warning, "empty-term", t.field, false,
		fmt.Sprintf("term on %s has no matchExpressions and no matchName: it matches on every node where nfd-worker publishes %s at all; name the elements it should test", t.term.Feature, t.term.Feature))
}

// comparisonOps are the operators that read an expression's type.
var comparisonOps = []api.MatchOp{api.MatchGt, api.MatchGe, api.MatchLt, api.MatchLe, api.MatchGtLt, api.MatchGeLe}

// ignoredType warns about a type on an operator that does not read it
// (In compares strings whatever the type says).
func (c *checker) ignoredType(r ruleAt, field string, e *api.MatchExpression) {
	if e.Type == "" || slices.Contains(comparisonOps, e.Op) {
		return
	}
	if _, known := opNames[e.Op]; !known {
		return // invalid-op reports it
	}
	c.add(r.doc, r.ref, diag.Warning, "ignored-type", field+".type", true,
		fmt.Sprintf("op %s ignores type %q: only Gt, Ge, Lt, Le, GtLt and GeLe compare %ss; %s compares the values as strings", e.Op, e.Type, e.Type, e.Op))
}

// opNames are the match operators nfd-master knows.
var opNames = map[api.MatchOp]bool{
	api.MatchIn: true, api.MatchNotIn: true, api.MatchInRegexp: true, api.MatchExists: true, api.MatchDoesNotExist: true,
	api.MatchGt: true, api.MatchGe: true, api.MatchLt: true, api.MatchLe: true, api.MatchGtLt: true, api.MatchGeLe: true,
	api.MatchIsTrue: true, api.MatchIsFalse: true,
}

// usuallyBuiltIn are kernel modules that common kernels (Ubuntu's and
// Fedora's generic kernels, Talos, Container-Optimized OS, Bottlerocket)
// compile in: they never appear in /proc/modules, so kernel.loadedmodule
// does not list them (NFD issue #1025), while kernel.enabledmodule lists
// loaded and built-in modules alike.
var usuallyBuiltIn = []string{
	"af_packet", "dm_mod", "ext4", "ipv6", "nvme", "nvme_core", "overlay", "unix",
	"vfio", "vfio_iommu_type1", "vfio_pci",
}

// builtinModule points a kernel.loadedmodule expression on a module that
// is usually built in at kernel.enabledmodule.
func (c *checker) builtinModule(r ruleAt, field, name string, e *api.MatchExpression) {
	if e.Op == api.MatchDoesNotExist || !slices.Contains(usuallyBuiltIn, name) || usesFeature(r, "kernel.enabledmodule") {
		return
	}
	c.add(r.doc, r.ref, diag.Warning, "builtin-module", field, true,
		fmt.Sprintf("module %q is built into many kernels, and kernel.loadedmodule lists only modules loaded from /proc/modules: on such nodes this never matches; use kernel.enabledmodule (loaded and built-in modules; built-in ones under their modules.builtin file names, %q)", name, strings.ReplaceAll(name, "_", "-")))
}

// usesFeature reports whether any term of the rule matches feature.
func usesFeature(r ruleAt, feature string) bool {
	for _, t := range r.terms() {
		if strings.EqualFold(t.term.Feature, feature) {
			return true
		}
	}
	return false
}

// pciClass warns about pci.device class values that are not PCI class
// codes: nfd-worker publishes the class as four hex digits, base class
// and subclass, and base classes are 00 to 13, 40 or ff. A vendor or
// device id (10de, 1eb8) written as a class never matches.
func (c *checker) pciClass(r ruleAt, field string, e *api.MatchExpression) {
	if e.Op != api.MatchIn && e.Op != api.MatchNotIn {
		return
	}
	var bad []string
	for _, v := range e.Value {
		if !isPCIClass(v) {
			bad = append(bad, v)
		}
	}
	if len(bad) == 0 {
		return
	}
	c.add(r.doc, r.ref, diag.Warning, "pci-class", field+".value", false,
		fmt.Sprintf("%q %s not a PCI class code (four hex digits, base class 00-13, 40 or ff, e.g. 0300 for a VGA controller): nfd-worker never publishes such a class; a vendor or device id belongs under element vendor or device", bad, isAre(len(bad))))
}

// pciID warns about pci.device vendor and device values nfd-worker never
// publishes: it writes ids as four lowercase hex digits, without 0x.
func (c *checker) pciID(r ruleAt, field, name string, e *api.MatchExpression) {
	if e.Op != api.MatchIn && e.Op != api.MatchNotIn {
		return
	}
	var bad []string
	for _, v := range e.Value {
		if len(v) != 4 || strings.Trim(v, "0123456789abcdef") != "" {
			bad = append(bad, v)
		}
	}
	if len(bad) == 0 {
		return
	}
	c.add(r.doc, r.ref, diag.Warning, "pci-class", field+".value", false,
		fmt.Sprintf("%q %s not %s ids as nfd-worker publishes them (four lowercase hex digits, no 0x: 10de): such a value never matches", bad, isAre(len(bad)), name))
}

func isPCIClass(v string) bool {
	if len(v) != 4 && len(v) != 2 {
		return false
	}
	for _, r := range strings.ToLower(v) {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	base := strings.ToLower(v[:2])
	return base <= "13" || base == "40" || base == "ff"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// referenceValues checks an @feature.element label value whose element
// the rule's own matcher pins with In: where the rule matches, the label
// takes one of those values, so values that are not valid label values
// are dropped (all of them: certain, an error; some: a warning).
func (c *checker) referenceValues(r ruleAt) {
	for _, k := range slices.Sorted(maps.Keys(r.rule.Labels)) {
		v := r.rule.Labels[k]
		if !strings.HasPrefix(v, "@") {
			continue
		}
		parts := strings.SplitN(v[1:], ".", 3)
		if len(parts) != 3 {
			continue
		}
		feature, element := strings.ToLower(parts[0]+"."+parts[1]), parts[2]
		pinned, ok := pinnedValues(r.rule.MatchFeatures, feature, element)
		if !ok {
			continue
		}
		var bad []string
		for _, p := range pinned {
			if len(k8svalidation.IsValidLabelValue(p)) > 0 {
				bad = append(bad, p)
			}
		}
		if len(bad) == 0 {
			continue
		}
		sev, how := diag.Warning, "where the element holds one of them"
		if len(bad) == len(pinned) {
			sev, how = diag.Error, "wherever the rule matches"
		}
		c.add(r.doc, r.ref, sev, "reference-value", r.field+".labels["+fmt.Sprintf("%q", k)+"]", false,
			fmt.Sprintf("label %q takes %s, which the matcher pins to %q; %q %s not a valid label value (63 characters of letters, digits, '-', '_', '.'), so nfd-master drops the label %s; set a literal value instead", k, v, pinned, bad, isAre(len(bad)), how))
	}
}

// pinnedValues are the values an In expression on feature's element
// allows, from the rule's matchFeatures (terms that all must match).
func pinnedValues(m api.FeatureMatcher, feature, element string) ([]string, bool) {
	for _, t := range m {
		if strings.ToLower(t.Feature) != feature || t.MatchExpressions == nil {
			continue
		}
		if e := (*t.MatchExpressions)[element]; e != nil && e.Op == api.MatchIn && len(e.Value) > 0 {
			return e.Value, true
		}
	}
	return nil, false
}
