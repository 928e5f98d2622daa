package engine

import (
	"sort"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// Element is one matched element as templates see it: {Name} for a flag,
// {Name, Value} for an attribute, the attribute map for an instance.
type Element = map[string]string

// namedExpr is one entry of a compiled expression set.
type namedExpr struct {
	name string
	expr *expr
}

// term is a compiled FeatureMatcherTerm.
type term struct {
	// feature is the lower-cased feature name used for look-ups; domain and
	// featureKey are the template data keys, in the case the user wrote.
	feature    string
	domain     string
	featureKey string
	// exprs is nil when matchExpressions was not given, empty for {}.
	exprs     []namedExpr
	hasExprs  bool
	matchName *expr
	field     string
	// missingFails makes a missing feature an error (NFD v0.16).
	missingFails bool
}

func compileTerm(t *api.FeatureMatcherTerm, field string) *term {
	ct := &term{feature: strings.ToLower(t.Feature), field: field}
	if dom, feat, ok := strings.Cut(t.Feature, "."); ok {
		ct.domain, ct.featureKey = dom, feat
	} else {
		ct.domain = ct.feature
	}
	if t.MatchExpressions != nil {
		ct.hasExprs = true
		names := make([]string, 0, len(*t.MatchExpressions))
		for n := range *t.MatchExpressions {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			ct.exprs = append(ct.exprs, namedExpr{n, compileExpr((*t.MatchExpressions)[n])})
		}
	}
	if t.MatchName != nil {
		ct.matchName = compileExpr(t.MatchName)
	}
	return ct
}

// eval matches the term against a node's features. present is false when
// the feature does not exist at all (which fails the term, even for
// DoesNotExist). It mirrors nfd-master with fail-fast evaluation, taking
// expressions in name order.
func (t *term) eval(f *api.Features) (present, matched bool, elems []Element, err error) {
	flags, okF := f.Flags[t.feature]
	attrs, okA := f.Attributes[t.feature]
	insts, okI := f.Instances[t.feature]
	if !okF && !okA && !okI {
		return false, false, nil, nil
	}
	matched = true
	if t.hasExprs {
		matched, elems, err = t.evalExprs(flags.Elements, attrs.Elements, insts.Elements)
		if err != nil || !matched {
			return true, matched, elems, err
		}
	}
	if t.matchName != nil {
		var named []Element
		named, err = evalNames(t.matchName, flags.Elements, attrs.Elements, insts.Elements)
		elems = append(elems, named...)
		matched = err == nil && len(named) > 0
	}
	return true, matched, elems, err
}

func (t *term) evalExprs(keys map[string]api.Nil, values map[string]string, instances []api.InstanceFeature) (bool, []Element, error) {
	if len(t.exprs) == 0 {
		return matchEverything(keys, values, instances)
	}
	matched, elems, err := t.evalKeysAndValues(keys, values)
	if err != nil {
		return false, nil, err
	}
	for _, inst := range instances {
		ok, err := t.evalInstance(inst.Attributes)
		if err != nil {
			return false, nil, err
		}
		if ok {
			elems = append(elems, inst.Attributes)
			matched = true
		}
	}
	return matched, elems, nil
}

// matchEverything implements the empty expression set as nfd-master does:
// it matches when the feature has flag or attribute elements (even an empty
// set of them) or at least one instance. Only instances become template
// data; flag and attribute elements are not listed.
func matchEverything(keys map[string]api.Nil, values map[string]string, instances []api.InstanceFeature) (bool, []Element, error) {
	elems := make([]Element, 0, len(instances))
	for _, inst := range instances {
		elems = append(elems, inst.Attributes)
	}
	return keys != nil || values != nil || len(elems) > 0, elems, nil
}

func (t *term) evalKeysAndValues(keys map[string]api.Nil, values map[string]string) (bool, []Element, error) {
	if keys == nil && values == nil {
		return false, nil, nil
	}
	var elems []Element
	for _, ne := range t.exprs {
		matchK, matchV := false, false
		if keys != nil {
			_, ok := keys[ne.name]
			m, err := ne.expr.eval(ok, false, "")
			if err != nil {
				return false, nil, err
			}
			if m {
				matchK = true
				elems = append(elems, Element{"Name": ne.name})
			} else if ne.expr.op == api.MatchDoesNotExist {
				return false, nil, nil
			}
		}
		if values != nil {
			v, ok := values[ne.name]
			m, err := ne.expr.eval(ok, true, v)
			if err != nil {
				return false, nil, err
			}
			if m {
				matchV = true
				elems = append(elems, Element{"Name": ne.name, "Value": v})
			} else if ne.expr.op == api.MatchDoesNotExist {
				return false, nil, nil
			}
		}
		if !matchK && !matchV {
			return false, nil, nil
		}
	}
	sortByName(elems)
	return true, elems, nil
}

func (t *term) evalInstance(attrs map[string]string) (bool, error) {
	for _, ne := range t.exprs {
		v, ok := attrs[ne.name]
		m, err := ne.expr.eval(ok, true, v)
		if err != nil || !m {
			return false, err
		}
	}
	return true, nil
}

// evalNames implements matchName: the expression is tested against element
// names; every flag, attribute and instance with a matching name is matched.
func evalNames(e *expr, keys map[string]api.Nil, values map[string]string, instances []api.InstanceFeature) ([]Element, error) {
	var elems []Element
	for _, k := range sortedKeys(keys) {
		m, err := e.eval(true, true, k)
		if err != nil {
			return nil, err
		}
		if m {
			elems = append(elems, Element{"Name": k})
		}
	}
	for _, k := range sortedKeys(values) {
		m, err := e.eval(true, true, k)
		if err != nil {
			return nil, err
		}
		if m {
			elems = append(elems, Element{"Name": k, "Value": values[k]})
		}
	}
	sortByName(elems)
	for _, inst := range instances {
		for _, k := range sortedKeys(inst.Attributes) {
			m, err := e.eval(true, true, k)
			if err != nil {
				return nil, err
			}
			if m {
				elems = append(elems, inst.Attributes)
				break
			}
		}
	}
	return elems, nil
}

func sortByName(elems []Element) {
	sort.SliceStable(elems, func(i, j int) bool { return elems[i]["Name"] < elems[j]["Name"] })
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
