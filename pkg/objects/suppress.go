package objects

import (
	"regexp"
	"strconv"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// IgnoreAnnotation lists, on an NFD object, the checks whose findings on
// it are accepted: "NFD020" or "NFD020:rule name", comma-separated.
const IgnoreAnnotation = "nfd-fn.dev/ignore"

// Suppress applies the suppressions of the objects' ignore annotations
// and of the run (ignore, the same list form, from the functionConfig or
// --ignore), reporting those that silence nothing.
func (s *Set) Suppress(l diag.List, runWide string, runSource diag.Diagnostic) diag.List {
	sups := diag.ParseSuppressions(runWide, nil, runSource)
	for _, o := range s.Rules {
		sups = append(sups, annotationSuppressions(RuleRef(o.Obj), o.Obj.Metadata.Annotations, o.Origin)...)
	}
	for _, o := range s.Groups {
		sups = append(sups, annotationSuppressions(GroupRef(o.Obj), o.Obj.Metadata.Annotations, o.Origin)...)
	}
	for _, o := range s.Features {
		sups = append(sups, annotationSuppressions(FeatureRef(o.Obj), o.Obj.Metadata.Annotations, o.Origin)...)
	}
	return diag.Suppress(l, sups, s.ruleOf)
}

func annotationSuppressions(ref diag.ObjectRef, annotations map[string]string, o Origin) []diag.Suppression {
	list, ok := annotations[IgnoreAnnotation]
	if !ok {
		return nil
	}
	field := "metadata.annotations[" + strconv.Quote(IgnoreAnnotation) + "]"
	source := diag.Diagnostic{Object: ref, Field: field, Pos: o.Position(field, false)}
	return diag.ParseSuppressions(list, &ref, source)
}

var rulePath = regexp.MustCompile(`^spec\.(rules|featureGroupRules)\[(\d+)\]`)

// ruleOf names the rule a diagnostic's field is in, "" when none.
func (s *Set) ruleOf(d *diag.Diagnostic) string {
	m := rulePath.FindStringSubmatch(d.Field)
	if m == nil {
		return ""
	}
	i, _ := strconv.Atoi(m[2])
	for _, o := range s.Rules {
		if RuleRef(o.Obj).Key() == d.Object.Key() && m[1] == "rules" && i < len(o.Obj.Spec.Rules) {
			return o.Obj.Spec.Rules[i].Name
		}
	}
	for _, o := range s.Groups {
		if GroupRef(o.Obj).Key() == d.Object.Key() && m[1] == "featureGroupRules" && i < len(o.Obj.Spec.Rules) {
			return o.Obj.Spec.Rules[i].Name
		}
	}
	return ""
}
