package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// staticCustomRules are the rules nfd-worker's custom source always runs.
func staticCustomRules() []customRule {
	exists := &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}
	return []customRule{
		{rule: &v1alpha1.Rule{
			Name:   "RDMA capable static rule",
			Labels: map[string]string{"rdma.capable": "true"},
			MatchFeatures: v1alpha1.FeatureMatcher{{
				Feature:          "pci.device",
				MatchExpressions: &v1alpha1.MatchExpressionSet{"vendor": {Op: v1alpha1.MatchIn, Value: v1alpha1.MatchValue{"15b3"}}},
			}},
		}},
		{rule: &v1alpha1.Rule{
			Name:   "RDMA available static rule",
			Labels: map[string]string{"rdma.available": "true"},
			MatchFeatures: v1alpha1.FeatureMatcher{{
				Feature:          "kernel.loadedmodule",
				MatchExpressions: &v1alpha1.MatchExpressionSet{"ib_uverbs": exists, "rdma_ucm": exists},
			}},
		}},
	}
}

// customLabels runs the static rules, the worker config's sources.custom
// and the custom.d rule files in order, feeding each rule's labels and vars
// back as rule.matched for the later rules. Features are not modified.
func customLabels(e *env, features v1alpha1.Features, c *collector) map[string]string {
	rules := append(staticCustomRules(), e.cfg.Sources.Custom...)
	rules = append(rules, readCustomDir(e.host, c)...)
	work := copyFeatures(features)
	kconfig := legacyKconfig(features)
	labels := map[string]string{}
	for _, r := range rules {
		out, err := runCustomRule(r, e, work, kconfig)
		if err != nil {
			c.warn("%v", err)
			continue
		}
		mergeInto(labels, out.Labels)
		backref := work.Attributes["rule.matched"]
		if backref.Elements == nil {
			backref = attrSet(nil)
		}
		mergeInto(backref.Elements, out.Labels)
		mergeInto(backref.Elements, out.Vars)
		work.Attributes["rule.matched"] = backref
	}
	return labels
}

// runCustomRule evaluates a legacy or NodeFeatureRule-style rule.
func runCustomRule(r customRule, e *env, f v1alpha1.Features, kconfig map[string]string) (RuleOutput, error) {
	if r.legacy != nil {
		labels := r.legacy.execute(f, kconfig, e.opts.NodeName)
		return RuleOutput{Matched: labels != nil, Labels: labels}, nil
	}
	if r.rule == nil {
		return RuleOutput{}, fmt.Errorf("empty custom rule")
	}
	out, err := e.opts.Evaluator.EvaluateRule(*r.rule, f)
	if err != nil {
		return RuleOutput{}, fmt.Errorf("failed to execute rule %s: %w", r.rule.Name, err)
	}
	return out, nil
}

// readCustomDir reads the rule files of custom.d below the host root and
// of its first-level subdirectories, in name order, as nfd-worker does:
// entries are classified without following symlinks (a link to a directory
// is read as a file and fails), directories are entered before dot-files
// are skipped, and a file that does not parse is skipped whole with a
// warning naming it. Fields nfd-worker ignores inside a rule are warnings.
func readCustomDir(h host, c *collector) []customRule {
	var rules []customRule
	var walk func(dir string, recurse bool)
	walk = func(dir string, recurse bool) {
		ents, err := h.readDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				c.warn("unable to access directory: %v", err)
			}
			return
		}
		for _, ent := range ents {
			p := path.Join(dir, ent.Name())
			switch {
			case ent.IsDir() && recurse:
				walk(p, false)
			case ent.IsDir(), strings.HasPrefix(ent.Name(), "."):
			default:
				rules = append(rules, readCustomFile(h, p, c)...)
			}
		}
	}
	walk(customDirRel, true)
	return rules
}

// readCustomFile parses one custom.d file.
func readCustomFile(h host, p string, c *collector) []customRule {
	raw, err := h.readFile(p)
	if err != nil {
		c.warn("could not read file %s: %v", p, err)
		return nil
	}
	rules, ignored, err := parseCustomFile(raw)
	if err != nil {
		c.warn("could not parse file %s, skipping it: %s", p, strings.Join(strings.Fields(err.Error()), " "))
		return nil
	}
	for _, f := range ignored {
		c.warn("%s: %s", p, f)
	}
	return rules
}

// copyFeatures returns a copy of f whose maps can be changed freely.
func copyFeatures(f v1alpha1.Features) v1alpha1.Features {
	out := newFeatures()
	mergeFeatures(&out, f)
	return out
}

// legacyKconfig returns the kernel config in legacy form ("y"/"m" read
// "true") from kernel.config.
func legacyKconfig(f v1alpha1.Features) map[string]string {
	out := map[string]string{}
	for k, v := range f.Attributes["kernel.config"].Elements {
		if v == "y" || v == "m" {
			v = "true"
		}
		out[k] = v
	}
	return out
}

// execute runs a legacy rule: matchers are ORed. It returns nil when the
// rule does not match.
func (r *legacyRule) execute(f v1alpha1.Features, kconfig map[string]string, node string) map[string]string {
	matched := len(r.MatchOn) == 0
	for _, m := range r.MatchOn {
		if m.match(f, kconfig, node) {
			matched = true
			break
		}
	}
	if !matched {
		return nil
	}
	name := r.Name
	if !strings.Contains(name, "/") {
		name = "custom-" + name
	}
	value := "true"
	if r.Value != nil {
		value = *r.Value
	}
	return map[string]string{name: value}
}

// match ANDs the rules of one legacy matcher.
func (m legacyMatcher) match(f v1alpha1.Features, kconfig map[string]string, node string) bool {
	return (m.PciID == nil || m.PciID.matchAny(f.Instances["pci.device"].Elements, false)) &&
		(m.UsbID == nil || m.UsbID.matchAny(f.Instances["usb.device"].Elements, true)) &&
		(m.LoadedKMod == nil || allIn(*m.LoadedKMod, f.Flags["kernel.loadedmodule"].Elements)) &&
		(m.CpuID == nil || allIn(*m.CpuID, f.Flags["cpu.cpuid"].Elements)) &&
		(m.Kconfig == nil || kconfigMatch(*m.Kconfig, kconfig)) &&
		(m.Nodename == nil || nodenameMatch(*m.Nodename, node))
}

// matchAny is true when some device has an allowed value for every listed
// attribute; a rule listing nothing matches nothing.
func (r *idRule) matchAny(devs []v1alpha1.InstanceFeature, withSerial bool) bool {
	if len(r.Class) == 0 && len(r.Vendor) == 0 && len(r.Device) == 0 && (!withSerial || len(r.Serial) == 0) {
		return false
	}
	for _, d := range devs {
		a := d.Attributes
		if in(a["class"], r.Class) && in(a["vendor"], r.Vendor) && in(a["device"], r.Device) &&
			(!withSerial || in(a["serial"], r.Serial)) {
			return true
		}
	}
	return false
}

// in is true when list is empty or holds v.
func in(v string, list []string) bool {
	return len(list) == 0 || slices.Contains(list, v)
}

// allIn is true when every name is an element of set.
func allIn(names []string, set map[string]v1alpha1.Nil) bool {
	for _, n := range names {
		if _, ok := set[n]; !ok {
			return false
		}
	}
	return true
}

// kconfigMatch is true when every "OPT" is enabled (y or m) and every
// "OPT=value" has that value.
func kconfigMatch(opts []string, kconfig map[string]string) bool {
	for _, o := range opts {
		name, want, hasValue := strings.Cut(o, "=")
		v, ok := kconfig[name]
		if !ok || (hasValue && (v == "true" || v != want)) || (!hasValue && v != "true") {
			return false
		}
	}
	return true
}

// nodenameMatch is true when a pattern matches the node name; invalid
// patterns are skipped as nfd-worker does.
func nodenameMatch(patterns []string, node string) bool {
	for _, p := range patterns {
		if ok, err := regexp.MatchString(p, node); err == nil && ok {
			return true
		}
	}
	return false
}
