package engine

import (
	"errors"
	"fmt"
	"maps"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// rule is a compiled Rule (or the matching part of a GroupRule).
type rule struct {
	name          string
	field         string
	src           *api.Rule
	matchFeatures matcher
	matchAny      []matcher
	// labelsTemplate and varsTemplate are nil when not given; a template
	// that does not parse keeps its parse error, which fails the rule
	// wherever it matches, since that is when nfd-master parses it.
	labelsTemplate *kvTemplate
	varsTemplate   *kvTemplate
	// fatal is the first compile problem that fails the rule wherever it
	// is evaluated, nil when there is none.
	fatal error
}

// Output is what one rule produced on one node.
type Output struct {
	Labels            map[string]string
	Vars              map[string]string
	Annotations       map[string]string
	ExtendedResources map[string]string
	Taints            []api.Taint
}

// hasTemplates reports whether the rule has any template to expand.
func (r *rule) hasTemplates() bool {
	return r.labelsTemplate != nil || r.varsTemplate != nil
}

// execute runs the rule against f. It returns matched=false with a nil
// error when the rule does not match, and an error when nfd-master would
// fail the rule on this node.
func (r *rule) execute(f *api.Features) (out Output, matched bool, err error) {
	labels := map[string]string{}
	vars := map[string]string{}
	if len(r.matchAny) > 0 {
		anyMatched := false
		for i, m := range r.matchAny {
			ok, data, err := m.eval(f)
			if err != nil {
				return Output{}, false, r.wrap(err, indexField(r.field+".matchAny", i))
			}
			if !ok {
				continue
			}
			anyMatched = true
			if !r.hasTemplates() {
				break
			}
			if err := r.expand(data, labels, vars); err != nil {
				return Output{}, false, err
			}
		}
		if !anyMatched {
			return Output{}, false, nil
		}
	}
	if len(r.matchFeatures) > 0 {
		ok, data, err := r.matchFeatures.eval(f)
		if err != nil {
			return Output{}, false, r.wrap(err, r.field+".matchFeatures")
		}
		if !ok {
			return Output{}, false, nil
		}
		if err := r.expand(data, labels, vars); err != nil {
			return Output{}, false, err
		}
	}
	src := r.src
	maps.Copy(labels, src.Labels)
	maps.Copy(vars, src.Vars)
	return Output{
		Labels:            labels,
		Vars:              vars,
		Annotations:       maps.Clone(src.Annotations),
		ExtendedResources: maps.Clone(src.ExtendedResources),
		Taints:            append([]api.Taint(nil), src.Taints...),
	}, true, nil
}

// expand runs the labels and then the vars template, in nfd-master's
// order: each is parsed (here: its parse error reported) just before it
// runs.
func (r *rule) expand(data templateData, labels, vars map[string]string) error {
	if err := r.labelsTemplate.expandField(data, labels, r.field+".labelsTemplate"); err != nil {
		return err
	}
	return r.varsTemplate.expandField(data, vars, r.field+".varsTemplate")
}

// expandField expands t (nothing when nil) into out, with nfd-master's
// error wording and the field path.
func (t *kvTemplate) expandField(data templateData, out map[string]string, field string) error {
	switch {
	case t == nil:
		return nil
	case t.parseErr != nil:
		return &termError{field: field, err: &StaticError{fmt.Errorf("the template does not parse: %w", t.parseErr)}}
	}
	if err := t.expandInto(data, out); err != nil {
		return &termError{field: field, err: fmt.Errorf("the template fails: %w", err)}
	}
	return nil
}

func (r *rule) wrap(err error, field string) error {
	var te *termError
	if errors.As(err, &te) {
		return te
	}
	return &termError{field: field, err: err}
}

func indexField(field string, i int) string {
	return fmt.Sprintf("%s[%d]", field, i)
}
