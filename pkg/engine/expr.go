package engine

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"

	"github.com/Masterminds/semver/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// opSpec describes one operator: how many values it takes and whether it
// compares numbers (or versions). Operators are data, not branches.
type opSpec struct {
	// minValues and maxValues bound the number of values (-1: unbounded).
	minValues, maxValues int
	// presence marks operators decided by element presence alone
	// (Exists, DoesNotExist, the empty "any" operator).
	presence bool
	// ordered marks the comparison operators that parse their operands.
	ordered bool
}

var opSpecs = map[api.MatchOp]opSpec{
	api.MatchAny:          {0, 0, true, false},
	api.MatchExists:       {0, 0, true, false},
	api.MatchDoesNotExist: {0, 0, true, false},
	api.MatchIn:           {1, -1, false, false},
	api.MatchNotIn:        {1, -1, false, false},
	api.MatchInRegexp:     {1, -1, false, false},
	api.MatchGt:           {1, 1, false, true},
	api.MatchGe:           {1, 1, false, true},
	api.MatchLt:           {1, 1, false, true},
	api.MatchLe:           {1, 1, false, true},
	api.MatchGtLt:         {2, 2, false, true},
	api.MatchGeLe:         {2, 2, false, true},
	api.MatchIsTrue:       {0, 0, false, false},
	api.MatchIsFalse:      {0, 0, false, false},
}

// expr is a compiled MatchExpression. Problems that nfd-master would only
// hit while evaluating are found here once: alwaysErr fails the expression
// whenever it is evaluated, presentErr whenever it is evaluated against an
// element that is present with a value. operandErr is also certain to fail
// such an evaluation, but nfd-master reads the node's value first, so it
// only surfaces when that value parses.
type expr struct {
	op         api.MatchOp
	values     []string
	valueType  api.ValueType
	version    bool
	regexps    []*regexp.Regexp
	operands   []operand
	alwaysErr  error
	presentErr error
	operandErr error
	// errAt names the field of the expression the error is about: "op",
	// "type", or "" for its values.
	errAt string
}

// operand is a parsed comparison operand: an integer or a version.
type operand struct {
	n int
	v [3]uint64
}

func compileExpr(me *api.MatchExpression) *expr {
	if me == nil {
		me = &api.MatchExpression{}
	}
	e := &expr{op: me.Op, values: me.Value, valueType: me.Type, version: me.Type == api.ValueTypeVersion}
	defer e.markStatic()
	spec, ok := opSpecs[me.Op]
	if !ok {
		e.alwaysErr, e.errAt = fmt.Errorf("op %q is not a match operator", me.Op), "op"
		return e
	}
	n := len(me.Value)
	switch {
	case spec.presence || spec.maxValues == 0:
		if n != 0 {
			err := fmt.Errorf("op %s takes no values, got %v", me.Op, me.Value)
			if spec.presence {
				e.alwaysErr = err
			} else {
				e.presentErr = err
			}
		}
		return e
	case spec.ordered && (n < spec.minValues || n > spec.maxValues):
		e.presentErr = valueCountError(me)
		return e
	case n < spec.minValues:
		e.presentErr = fmt.Errorf("op %s needs at least one value, got none", me.Op)
		return e
	}
	switch {
	case me.Op == api.MatchInRegexp:
		e.compileRegexps()
	case spec.ordered:
		e.compileOperands(me)
	}
	return e
}

// markStatic wraps the errors found at compile time, so that evaluation
// failures they cause can be told apart from data-dependent ones.
func (e *expr) markStatic() {
	for _, err := range []*error{&e.alwaysErr, &e.presentErr, &e.operandErr} {
		if *err != nil {
			*err = &StaticError{*err}
		}
	}
}

// StaticError is an evaluation failure that Compile already reported: the
// rule is broken whatever the node's features are.
type StaticError struct{ Err error }

func (e *StaticError) Error() string { return e.Err.Error() }
func (e *StaticError) Unwrap() error { return e.Err }

func valueCountError(me *api.MatchExpression) error {
	if opSpecs[me.Op].maxValues == 2 {
		return fmt.Errorf("op %s takes exactly two values (a lower and an upper bound), got %v", me.Op, me.Value)
	}
	return fmt.Errorf("op %s takes exactly one value, got %v", me.Op, me.Value)
}

func (e *expr) compileRegexps() {
	e.regexps = make([]*regexp.Regexp, len(e.values))
	for i, v := range e.values {
		re, err := regexp.Compile(v)
		if err != nil {
			e.presentErr = fmt.Errorf("op %s needs regular expressions, and %q in %v does not compile: %v", e.op, v, e.values, err)
			return
		}
		e.regexps[i] = re
	}
}

// compileOperands parses the values of a comparison operator. As in
// nfd-master, a type other than "" or "version" fails the expression
// before any value is read, and only integer ranges must be ordered:
// GeLe ["6.8.0","6.8.0"] with type version is a valid range.
func (e *expr) compileOperands(me *api.MatchExpression) {
	if me.Type != api.ValueTypeInt && me.Type != api.ValueTypeVersion {
		e.presentErr = fmt.Errorf("type %q is not a comparison type: op %s compares integers, or versions with type %q", me.Type, me.Op, api.ValueTypeVersion)
		e.errAt = "type"
		return
	}
	e.operands = make([]operand, len(e.values))
	for i, v := range e.values {
		o, err := e.parseOperand(v)
		if err != nil {
			e.operandErr = fmt.Errorf("%v in %s", err, formatExpr(me))
			return
		}
		e.operands[i] = o
	}
	if !e.version && len(e.operands) == 2 && e.operands[0].n >= e.operands[1].n {
		e.operandErr = fmt.Errorf("op %s needs its lower bound below its upper bound, got %v", e.op, e.values)
	}
}

// formatExpr prints an expression as nfd-master's MatchExpression.String
// does: the type is not shown.
func formatExpr(me *api.MatchExpression) string {
	if len(me.Value) == 0 {
		return fmt.Sprintf("{op: %q}", me.Op)
	}
	return fmt.Sprintf("{op: %q, value: %q}", me.Op, me.Value)
}

func (e *expr) parseOperand(s string) (operand, error) {
	if e.version {
		return parseVersion(s)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return operand{}, fmt.Errorf("not a number %q", s)
	}
	return operand{n: n}, nil
}

// maxVersionLen is the longest version string semver v3.5.0 (the version
// nfd-master v0.19.0 is built with) parses; longer ones are not versions.
const maxVersionLen = 256

// parseVersion reads a version as nfd-master does: 1, 1.2, v1.2.3 and
// 6.8.0-45-generic parse (leading zeros too); the prerelease is dropped and
// build metadata ignored when comparing.
func parseVersion(s string) (operand, error) {
	if len(s) > maxVersionLen {
		return operand{}, fmt.Errorf("not a version %q", s)
	}
	v, err := semver.NewVersion(s)
	if err != nil {
		return operand{}, fmt.Errorf("not a version %q", s)
	}
	return operand{v: [3]uint64{v.Major(), v.Minor(), v.Patch()}}, nil
}

func compareOperands(a, b operand, version bool) int {
	if !version {
		return cmp.Compare(a.n, b.n)
	}
	for i := range a.v {
		if c := cmp.Compare(a.v[i], b.v[i]); c != 0 {
			return c
		}
	}
	return 0
}

// eval evaluates the expression against one element. present tells whether
// the element exists; hasValue whether it carries a value (flags do not).
func (e *expr) eval(present, hasValue bool, value string) (bool, error) {
	if e.alwaysErr != nil {
		return false, e.alwaysErr
	}
	switch e.op {
	case api.MatchAny:
		return true, nil
	case api.MatchExists:
		return present, nil
	case api.MatchDoesNotExist:
		return !present, nil
	}
	if !present || !hasValue {
		return false, nil
	}
	if e.presentErr != nil {
		return false, e.presentErr
	}
	switch e.op {
	case api.MatchIn:
		return contains(e.values, value), nil
	case api.MatchNotIn:
		return !contains(e.values, value), nil
	case api.MatchInRegexp:
		for _, re := range e.regexps {
			if re.MatchString(value) {
				return true, nil
			}
		}
		return false, nil
	case api.MatchIsTrue:
		return value == "true", nil
	case api.MatchIsFalse:
		return value == "false", nil
	}
	return e.compare(value)
}

// compare evaluates a comparison operator. The node's value is parsed
// before the operands are looked at, so its error wins, as in nfd-master.
func (e *expr) compare(value string) (bool, error) {
	in, err := e.parseOperand(value)
	if err != nil {
		return false, err
	}
	if e.operandErr != nil {
		return false, e.operandErr
	}
	c0 := compareOperands(in, e.operands[0], e.version)
	switch e.op {
	case api.MatchGt:
		return c0 > 0, nil
	case api.MatchGe:
		return c0 >= 0, nil
	case api.MatchLt:
		return c0 < 0, nil
	case api.MatchLe:
		return c0 <= 0, nil
	}
	c1 := compareOperands(in, e.operands[1], e.version)
	if e.op == api.MatchGtLt {
		return c0 > 0 && c1 < 0, nil
	}
	return c0 >= 0 && c1 <= 0, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
