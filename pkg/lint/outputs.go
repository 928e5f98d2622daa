package lint

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// outputs judges the labels, annotations, extended resources and taints
// rules write literally, as nfd-master would, and their @ references.
func (c *checker) outputs() {
	o := &c.opts
	for _, r := range c.allRules() {
		if r.ref.Kind != "NodeFeatureRule" {
			continue
		}
		c.outputMap(r, "labels", "label", r.rule.Labels, o.CheckLabel, true)
		c.outputMap(r, "annotations", "annotation", r.rule.Annotations, o.CheckAnnotation, false)
		c.outputMap(r, "extendedResources", "extended resource", r.rule.ExtendedResources, o.CheckExtendedResource, true)
		c.settingsDrop(r)
		c.referenceValues(r)
		for i, t := range r.rule.Taints {
			if v := o.CheckTaint(t); v != nil {
				c.add(r.doc, r.ref, v.Severity, "taint", fmt.Sprintf("%s.taints[%d]%s", r.field, i, taintPart(v.Err)), false,
					fmt.Sprintf("taint %q: %v; nfd-master drops it", t.Key, v.Err))
			}
		}
	}
}

// settingsDrop reports outputs nfd-master's settings switch off: taints
// while enableTaints is off, and what restrictions.disableLabels,
// disableAnnotations and disableExtendedResources drop. Given settings
// make it certain (an error); nfd-master's defaults only say what an
// unconfigured cluster does (a warning).
func (c *checker) settingsDrop(r ruleAt) {
	o := &c.opts
	if len(r.rule.Taints) > 0 && !o.EnableTaints {
		msg := "nfd-master applies taints only with enableTaints on, which is off by default and not set in the configuration given: on a default nfd-master these taints are never applied (set enableTaints: \"true\" if the cluster's nfd-master has it on)"
		if o.Given {
			msg = "enableTaints is off in the given configuration: nfd-master never applies these taints"
		}
		c.add(r.doc, r.ref, o.PolicySeverity(), "taint-disabled", r.field+".taints", true, msg)
	}
	disabled := []struct {
		on     bool
		fields []string
		what   string
		key    string
	}{
		{o.DisableLabels, []string{"labels", "labelsTemplate"}, "labels", "disableLabels"},
		{o.DisableAnnotations, []string{"annotations"}, "annotations", "disableAnnotations"},
		{o.DisableExtendedResources, []string{"extendedResources"}, "extended resources", "disableExtendedResources"},
	}
	for _, d := range disabled {
		if !d.on {
			continue
		}
		for _, f := range d.fields {
			if (f == "labels" && len(r.rule.Labels) > 0) || (f == "labelsTemplate" && r.rule.LabelsTemplate != "") ||
				(f == "annotations" && len(r.rule.Annotations) > 0) || (f == "extendedResources" && len(r.rule.ExtendedResources) > 0) {
				c.add(r.doc, r.ref, diag.Error, "output-disabled", r.field+"."+f, true,
					fmt.Sprintf("restrictions.%s is on in the given configuration: nfd-master writes no %s, so this rule's are never applied", d.key, d.what))
			}
		}
	}
}

type checkFunc func(key, value string) *master.Verdict

func (c *checker) outputMap(r ruleAt, field, what string, m map[string]string, check checkFunc, refs bool) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		path := r.field + "." + field + "[" + strconv.Quote(k) + "]"
		if v := check(k, m[k]); v != nil {
			c.add(r.doc, r.ref, v.Severity, "output-"+strings.ReplaceAll(what, " ", "-"), path, true,
				fmt.Sprintf("%s %q: %v; nfd-master drops it", what, k, v.Err))
		}
		if refs && strings.HasPrefix(m[k], "@") {
			c.reference(r, path, m[k])
		}
	}
}

// reference checks an @domain.feature.element value: only attribute
// features can be referenced, and the element must be able to exist.
func (c *checker) reference(r ruleAt, path, value string) {
	parts := strings.SplitN(value[1:], ".", 3)
	report := func(sev diag.Severity, msg string) *diag.Diagnostic {
		return c.add(r.doc, r.ref, sev, "reference", path, false, fmt.Sprintf("reference %s %s; nfd-master drops the entry", value, msg))
	}
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		report(diag.Error, "is not of the form @<domain>.<feature>.<element>")
		return
	}
	feature, element := parts[0]+"."+parts[1], parts[2]
	entry, ok := catalogue[feature]
	if !ok {
		entry, ok, _ = c.catalog.lookup(strings.ToLower(feature))
	}
	switch {
	case !ok:
		if _, _, declaredDomain := c.catalog.lookup(strings.ToLower(feature)); declaredDomain {
			report(diag.Error, fmt.Sprintf("cannot resolve: %s is not in the feature catalogue, which declares its domain", feature)).Suggestion = suggest.Closest(feature, c.catalog.names())
		} else if msg := unknownFeature(feature, c.inputFeatures()); msg != "" {
			report(diag.Warning, "cannot resolve: "+msg)
		}
	case !entry.has(attributeFeature):
		report(diag.Error, fmt.Sprintf("cannot resolve: %s is %s feature and only attribute features can be referenced", feature, article(entry.kinds[0])))
	case !entry.hasElement(element):
		msg := fmt.Sprintf("cannot resolve: %s has no element %q (its elements are %s)", feature, element, strings.Join(entry.elements, ", "))
		if best := suggest.Closest(element, entry.elements); best != "" {
			msg = fmt.Sprintf("cannot resolve: %s has no element %q, did you mean %q?", feature, element, best)
		}
		report(diag.Error, msg)
	}
}

func article(k featureKind) string {
	if k == instanceFeature {
		return "an " + string(k)
	}
	return "a " + string(k)
}

// taintPart points a taint's problem at the part of the taint it is
// about: .effect, .key or .value.
func taintPart(err error) string {
	switch {
	case master.IsTaintEffectError(err):
		return ".effect"
	case master.IsTaintValueError(err):
		return ".value"
	}
	return ".key"
}
