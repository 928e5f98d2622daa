package ruletest

import (
	"cmp"
	"slices"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Rule is one NodeFeatureRule rule or NodeFeatureGroup rule, as coverage
// counts it: its object, its field (spec.rules[2]), its name and where
// it is written.
type Rule struct {
	Object diag.ObjectRef
	Field  string
	Name   string
	Pos    diag.Position
}

func (r Rule) key() ruleKey { return ruleKey{r.Object.Key(), r.Field} }

type ruleKey struct {
	object diag.ObjectRef
	field  string
}

// Coverage gathers, over every suite run, the rules the inputs hold and
// whether any test node matched each.
type Coverage struct {
	rules   map[ruleKey]Rule
	matched map[ruleKey]bool
}

// NewCoverage returns an empty Coverage.
func NewCoverage() *Coverage {
	return &Coverage{rules: map[ruleKey]Rule{}, matched: map[ruleKey]bool{}}
}

// Add records the rules of one suite's inputs and, of them, those that
// matched at least one of its nodes (matched, by object and field).
func (c *Coverage) Add(rules []Rule, matched func(Rule) bool) {
	for _, r := range rules {
		k := r.key()
		if _, ok := c.rules[k]; !ok {
			c.rules[k] = r
		}
		if matched(r) {
			c.matched[k] = true
		}
	}
}

// Total is the number of rules counted.
func (c *Coverage) Total() int { return len(c.rules) }

// Percent is the share of rules matched on at least one test node, in
// percent (100 when there are no rules).
func (c *Coverage) Percent() float64 {
	if len(c.rules) == 0 {
		return 100
	}
	return 100 * float64(len(c.matched)) / float64(len(c.rules))
}

// Unmatched are the rules no test node matched, by position.
func (c *Coverage) Unmatched() []Rule {
	var out []Rule
	for k, r := range c.rules {
		if !c.matched[k] {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Rule) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Object.String(), b.Object.String()), cmp.Compare(a.Field, b.Field))
	})
	return out
}
