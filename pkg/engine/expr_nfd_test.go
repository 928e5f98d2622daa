package engine

import (
	"strings"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// exprCase is one evaluation of one expression against one element, with
// what nfd-master v0.19.0 gives. The cases are transcribed from NFD's own
// expression tests (TestEvaluateMatchExpression*) and its code.
type exprCase struct {
	name    string
	op      api.MatchOp
	values  []string
	typ     api.ValueType
	present bool
	value   string
	want    bool
	// wantErr is a substring of the error, "" for none.
	wantErr string
}

func runExprCases(t *testing.T, cases []exprCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := compileExpr(&api.MatchExpression{Op: tc.op, Value: tc.values, Type: tc.typ})
			got, err := e.eval(tc.present, true, tc.value)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("matched = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestExprSetOperatorsMatchNFD(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "any-matches-absent-element", op: api.MatchAny, want: true},
		{name: "in-absent-element-is-false", op: api.MatchIn, values: []string{"1", "2", "3"}, value: "2"},
		{name: "in-value-not-listed", op: api.MatchIn, values: []string{"1"}, present: true, value: "2"},
		{name: "in-value-listed", op: api.MatchIn, values: []string{"1", "2", "3"}, present: true, value: "2", want: true},
		{name: "in-empty-values-fails-when-present", op: api.MatchIn, present: true, value: "val", wantErr: "needs at least one value"},
		{name: "in-empty-values-quiet-when-absent", op: api.MatchIn},
		{name: "notin-absent-element-is-false", op: api.MatchNotIn, values: []string{"2"}, value: "2"},
		{name: "notin-value-not-listed", op: api.MatchNotIn, values: []string{"1"}, present: true, value: "2", want: true},
		{name: "notin-value-listed", op: api.MatchNotIn, values: []string{"1", "2", "3"}, present: true, value: "2"},
		{name: "notin-empty-values-fails-when-present", op: api.MatchNotIn, present: true, value: "val", wantErr: "needs at least one value"},
		{name: "inregexp-absent-element-is-false", op: api.MatchInRegexp, values: []string{"val-[0-9]$"}, value: "val-1"},
		{name: "inregexp-matches", op: api.MatchInRegexp, values: []string{"val-[0-9]$"}, present: true, value: "val-1", want: true},
		{name: "inregexp-anchored-end-refuses-longer", op: api.MatchInRegexp, values: []string{"val-[0-9]$"}, present: true, value: "val-12"},
		{name: "inregexp-any-of-several", op: api.MatchInRegexp, values: []string{"val-[0-9]$", "al-[1-9]"}, present: true, value: "val-12", want: true},
		{name: "inregexp-empty-values-fails-when-present", op: api.MatchInRegexp, present: true, value: "val", wantErr: "needs at least one value"},
		{name: "inregexp-invalid-regexp-fails-with-nfd-typo", op: api.MatchInRegexp, values: []string{"("}, present: true, value: "val", wantErr: "needs regular expressions"},
		{name: "exists-absent", op: api.MatchExists},
		{name: "exists-present", op: api.MatchExists, present: true, want: true},
		{name: "exists-with-values-fails-even-when-absent", op: api.MatchExists, values: []string{"1"}, wantErr: "takes no values"},
		{name: "doesnotexist-absent", op: api.MatchDoesNotExist, want: true},
		{name: "doesnotexist-present", op: api.MatchDoesNotExist, present: true},
		{name: "doesnotexist-with-values-fails", op: api.MatchDoesNotExist, values: []string{"1"}, wantErr: "takes no values"},
		{name: "any-with-values-fails", op: api.MatchAny, values: []string{"1"}, present: true, value: "val", wantErr: "takes no values"},
		{name: "istrue-absent", op: api.MatchIsTrue, value: "true"},
		{name: "istrue-true", op: api.MatchIsTrue, present: true, value: "true", want: true},
		{name: "istrue-one-is-not-true", op: api.MatchIsTrue, present: true, value: "1"},
		{name: "istrue-with-values-fails-when-present", op: api.MatchIsTrue, values: []string{"1"}, present: true, value: "true", wantErr: "takes no values"},
		{name: "istrue-with-values-quiet-when-absent", op: api.MatchIsTrue, values: []string{"1"}},
		{name: "isfalse-absent", op: api.MatchIsFalse, value: "false"},
		{name: "isfalse-false", op: api.MatchIsFalse, present: true, value: "false", want: true},
		{name: "isfalse-true", op: api.MatchIsFalse, present: true, value: "true"},
		{name: "isfalse-with-values-fails", op: api.MatchIsFalse, values: []string{"1", "2"}, present: true, value: "false", wantErr: "takes no values"},
		{name: "unknown-op-fails-even-when-absent", op: "non-existent-op", values: []string{"1"}, wantErr: `op "non-existent-op" is not a match operator`},
	})
}

func TestExprIntegerComparisonsMatchNFD(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "gt-absent-element-is-false", op: api.MatchGt, values: []string{"2"}, value: "3"},
		{name: "gt-equal-is-false", op: api.MatchGt, values: []string{"2"}, present: true, value: "2"},
		{name: "gt-greater", op: api.MatchGt, values: []string{"2"}, present: true, value: "3", want: true},
		{name: "gt-negative-numbers", op: api.MatchGt, values: []string{"-10"}, present: true, value: "-3", want: true},
		{name: "gt-plus-sign-and-leading-zeros-parse", op: api.MatchGt, values: []string{"5"}, present: true, value: "+007", want: true},
		{name: "ge-equal", op: api.MatchGe, values: []string{"2"}, present: true, value: "2", want: true},
		{name: "lt-equal-is-false", op: api.MatchLt, values: []string{"2"}, present: true, value: "2"},
		{name: "lt-less", op: api.MatchLt, values: []string{"2"}, present: true, value: "1", want: true},
		{name: "lt-negative-not-less", op: api.MatchLt, values: []string{"-10"}, present: true, value: "-3"},
		{name: "le-equal", op: api.MatchLe, values: []string{"2"}, present: true, value: "2", want: true},
		{name: "gt-no-value-fails", op: api.MatchGt, present: true, value: "1", wantErr: "takes exactly one value"},
		{name: "gt-two-values-fails", op: api.MatchGt, values: []string{"1", "2"}, present: true, value: "1", wantErr: "takes exactly one value"},
		{name: "lt-three-values-fails", op: api.MatchLt, values: []string{"1", "2", "3"}, present: true, value: "1", wantErr: "takes exactly one value"},
		{name: "gt-empty-operand-fails", op: api.MatchGt, values: []string{""}, present: true, value: "1", wantErr: `not a number "" in {op: "Gt", value: [""]}`},
		{name: "lt-operand-not-a-number", op: api.MatchLt, values: []string{"a"}, present: true, value: "1", wantErr: `not a number "a" in`},
		{name: "gt-input-not-a-number", op: api.MatchGt, values: []string{"2"}, present: true, value: "3a", wantErr: `not a number "3a"`},
		{name: "lt-input-decimal-is-not-a-number", op: api.MatchLt, values: []string{"2"}, present: true, value: "1.0", wantErr: `not a number "1.0"`},
		{name: "input-error-wins-over-operand-error", op: api.MatchGt, values: []string{"2.0"}, present: true, value: "str", wantErr: `not a number "str"`},
		{name: "gt-decimal-operand-fails-on-valid-input", op: api.MatchGt, values: []string{"2.0"}, present: true, value: "3", wantErr: `not a number "2.0" in`},
		{name: "gtlt-absent-element-is-false", op: api.MatchGtLt, values: []string{"1", "10"}, value: "1"},
		{name: "gtlt-lower-bound-excluded", op: api.MatchGtLt, values: []string{"1", "10"}, present: true, value: "1"},
		{name: "gtlt-upper-bound-excluded", op: api.MatchGtLt, values: []string{"1", "10"}, present: true, value: "10"},
		{name: "gtlt-inside", op: api.MatchGtLt, values: []string{"1", "10"}, present: true, value: "2", want: true},
		{name: "gtlt-negative-range", op: api.MatchGtLt, values: []string{"-10", "10"}, present: true, value: "-11"},
		{name: "gele-bounds-included", op: api.MatchGeLe, values: []string{"-10", "10"}, present: true, value: "10", want: true},
		{name: "gele-below", op: api.MatchGeLe, values: []string{"-10", "10"}, present: true, value: "-11"},
		{name: "gtlt-one-value-fails", op: api.MatchGtLt, values: []string{"1"}, present: true, value: "1", wantErr: "takes exactly two values"},
		{name: "gtlt-three-values-fails", op: api.MatchGtLt, values: []string{"1", "2", "3"}, present: true, value: "1", wantErr: "takes exactly two values"},
		{name: "gtlt-reversed-range-fails", op: api.MatchGtLt, values: []string{"2", "1"}, present: true, value: "1", wantErr: "lower bound below its upper bound"},
		{name: "gele-equal-bounds-fail-for-integers", op: api.MatchGeLe, values: []string{"5", "5"}, present: true, value: "5", wantErr: "lower bound below its upper bound"},
		{name: "gtlt-operand-not-a-number", op: api.MatchGtLt, values: []string{"a", "2"}, present: true, value: "1", wantErr: `not a number "a" in`},
		{name: "gtlt-input-not-a-number-wins-over-reversed-range", op: api.MatchGtLt, values: []string{"2", "1"}, present: true, value: "1.0", wantErr: `not a number "1.0"`},
	})
}

func TestExprTypeFieldMatchesNFD(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "gt-type-int-fails-when-present", op: api.MatchGt, values: []string{"2"}, typ: "int", present: true, value: "3", wantErr: `type "int" is not a comparison type: op Gt compares integers`},
		{name: "gele-type-integer-fails-when-present", op: api.MatchGeLe, values: []string{"1", "5"}, typ: "integer", present: true, value: "3", wantErr: "is not a comparison type"},
		{name: "bad-type-quiet-when-absent", op: api.MatchLt, values: []string{"2"}, typ: "int", value: "1"},
		{name: "value-count-checked-before-type", op: api.MatchGt, values: []string{"1", "2"}, typ: "int", present: true, value: "1", wantErr: "takes exactly one value"},
		{name: "bad-type-checked-before-values-parse", op: api.MatchGt, values: []string{"x"}, typ: "semver", present: true, value: "y", wantErr: "is not a comparison type"},
		{name: "type-ignored-by-in", op: api.MatchIn, values: []string{"a"}, typ: "int", present: true, value: "a", want: true},
		{name: "type-version-ignored-by-istrue", op: api.MatchIsTrue, typ: "version", present: true, value: "true", want: true},
	})
}

func TestExprVersionComparisonsMatchNFD(t *testing.T) {
	v := api.ValueTypeVersion
	runExprCases(t, []exprCase{
		{name: "gt-absent-element-is-false", op: api.MatchGt, values: []string{"2"}, typ: v, value: "3"},
		{name: "gt-equal-major-only", op: api.MatchGt, values: []string{"2"}, typ: v, present: true, value: "2"},
		{name: "gt-greater-major", op: api.MatchGt, values: []string{"2"}, typ: v, present: true, value: "3", want: true},
		{name: "gt-two-parts-equal", op: api.MatchGt, values: []string{"2.0"}, typ: v, present: true, value: "2.0"},
		{name: "gt-two-parts-greater", op: api.MatchGt, values: []string{"2.0"}, typ: v, present: true, value: "2.1", want: true},
		{name: "gt-three-parts-greater", op: api.MatchGt, values: []string{"2.0.1"}, typ: v, present: true, value: "2.0.2", want: true},
		{name: "ge-three-parts-less", op: api.MatchGe, values: []string{"2.0.1"}, typ: v, present: true, value: "2.0.0"},
		{name: "lt-two-parts-less", op: api.MatchLt, values: []string{"2.0"}, typ: v, present: true, value: "1.9", want: true},
		{name: "le-two-parts-equal", op: api.MatchLe, values: []string{"2.0"}, typ: v, present: true, value: "2.0", want: true},
		{name: "le-major-equals-major-dot-zero", op: api.MatchLe, values: []string{"2"}, typ: v, present: true, value: "2.0.0", want: true},
		{name: "input-not-a-version", op: api.MatchGt, values: []string{"2.0.1"}, typ: v, present: true, value: "str", wantErr: `not a version "str"`},
		{name: "operand-not-a-version", op: api.MatchGt, values: []string{"x"}, typ: v, present: true, value: "1.0", wantErr: `not a version "x" in {op: "Gt", value: ["x"]}`},
		{name: "negative-is-not-a-version", op: api.MatchGeLe, values: []string{"1", "10"}, typ: v, present: true, value: "-11", wantErr: `not a version "-11"`},
		{name: "prerelease-dropped-kernel-flavour", op: api.MatchGe, values: []string{"6.8"}, typ: v, present: true, value: "6.8.0-45-generic", want: true},
		{name: "prerelease-dropped-so-rc-equals-release", op: api.MatchLt, values: []string{"6.8.0"}, typ: v, present: true, value: "6.8.0-rc1"},
		{name: "build-metadata-ignored", op: api.MatchGe, values: []string{"1.2.3"}, typ: v, present: true, value: "1.2.3+build.5", want: true},
		{name: "v-prefix-parses", op: api.MatchLt, values: []string{"v1.2.3"}, typ: v, present: true, value: "1.2", want: true},
		{name: "leading-zeros-parse", op: api.MatchGe, values: []string{"1.2"}, typ: v, present: true, value: "01.02.03", want: true},
		{name: "four-parts-is-not-a-version", op: api.MatchGt, values: []string{"1"}, typ: v, present: true, value: "1.2.3.4", wantErr: "not a version"},
		{name: "prerelease-with-leading-zero-is-not-a-version", op: api.MatchGt, values: []string{"1"}, typ: v, present: true, value: "1.2.3-045", wantErr: "not a version"},
		{name: "version-of-256-bytes-parses", op: api.MatchGt, values: []string{"1"}, typ: v, present: true, value: "2.0.0-" + strings.Repeat("a", 250), want: true},
		{name: "version-over-256-bytes-is-not-a-version", op: api.MatchGt, values: []string{"1"}, typ: v, present: true, value: "2.0.0-" + strings.Repeat("a", 251), wantErr: "not a version"},
		{name: "empty-is-not-a-version", op: api.MatchGt, values: []string{"1"}, typ: v, present: true, value: "", wantErr: "not a version"},
		{name: "gtlt-bounds-excluded", op: api.MatchGtLt, values: []string{"1.0", "10.0"}, typ: v, present: true, value: "1.0"},
		{name: "gtlt-inside", op: api.MatchGtLt, values: []string{"1.0.1", "10.0.1"}, typ: v, present: true, value: "1.0.2", want: true},
		{name: "gele-bounds-included", op: api.MatchGeLe, values: []string{"1.0.1", "10.0.1"}, typ: v, present: true, value: "10.0.1", want: true},
		{name: "gele-kernel-range", op: api.MatchGeLe, values: []string{"5.4", "6.1"}, typ: v, present: true, value: "5.15.0", want: true},
		{name: "gele-equal-bounds-match-for-versions", op: api.MatchGeLe, values: []string{"6.8.0", "6.8.0"}, typ: v, present: true, value: "6.8.0-45-generic", want: true},
		{name: "gtlt-reversed-range-never-matches-without-error", op: api.MatchGtLt, values: []string{"10", "1"}, typ: v, present: true, value: "5"},
		{name: "gele-reversed-range-never-matches-without-error", op: api.MatchGeLe, values: []string{"6.9", "6.8"}, typ: v, present: true, value: "6.8.5"},
		{name: "gtlt-one-value-fails", op: api.MatchGtLt, values: []string{"1"}, typ: v, present: true, value: "1", wantErr: "takes exactly two values"},
	})
}

func TestExprOnFlagElementsMatchNFD(t *testing.T) {
	// nfd-master evaluates flags with a nil value: every operator but
	// Exists, DoesNotExist and the empty one is false, without error, even
	// when its values are broken.
	tests := []struct {
		name string
		me   api.MatchExpression
	}{
		{"in", api.MatchExpression{Op: api.MatchIn, Value: []string{"foo"}}},
		{"notin", api.MatchExpression{Op: api.MatchNotIn, Value: []string{"foo"}}},
		{"inregexp-invalid", api.MatchExpression{Op: api.MatchInRegexp, Value: []string{"["}}},
		{"gt", api.MatchExpression{Op: api.MatchGt, Value: []string{"1"}}},
		{"gtlt-reversed", api.MatchExpression{Op: api.MatchGtLt, Value: []string{"10", "1"}}},
		{"gt-bad-type", api.MatchExpression{Op: api.MatchGt, Value: []string{"1"}, Type: "int"}},
		{"istrue", api.MatchExpression{Op: api.MatchIsTrue}},
		{"isfalse-with-values", api.MatchExpression{Op: api.MatchIsFalse, Value: []string{"x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"-is-false-on-a-flag", func(t *testing.T) {
			got, err := compileExpr(&tt.me).eval(true, false, "")
			if got || err != nil {
				t.Errorf("got %v, %v; want false, nil", got, err)
			}
		})
	}
}
