package engine

import (
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

func TestExprEvalOperators(t *testing.T) {
	tests := []struct {
		name    string
		expr    api.MatchExpression
		present bool
		value   string
		want    bool
		wantErr bool
	}{
		{"in-matches-one-of-values", api.MatchExpression{Op: api.MatchIn, Value: []string{"a", "b"}}, true, "b", true, false},
		{"in-missing-element-is-false", api.MatchExpression{Op: api.MatchIn, Value: []string{"a"}}, false, "", false, false},
		{"notin-missing-element-is-false", api.MatchExpression{Op: api.MatchNotIn, Value: []string{"a"}}, false, "", false, false},
		{"notin-other-value", api.MatchExpression{Op: api.MatchNotIn, Value: []string{"a"}}, true, "c", true, false},
		{"inregexp-unanchored", api.MatchExpression{Op: api.MatchInRegexp, Value: []string{"^0[23]"}}, true, "0300", true, false},
		{"inregexp-bad-regexp-errors-when-present", api.MatchExpression{Op: api.MatchInRegexp, Value: []string{"["}}, true, "x", false, true},
		{"inregexp-bad-regexp-quiet-when-absent", api.MatchExpression{Op: api.MatchInRegexp, Value: []string{"["}}, false, "", false, false},
		{"exists", api.MatchExpression{Op: api.MatchExists}, true, "", true, false},
		{"exists-with-values-always-errors", api.MatchExpression{Op: api.MatchExists, Value: []string{"x"}}, false, "", false, true},
		{"doesnotexist", api.MatchExpression{Op: api.MatchDoesNotExist}, false, "", true, false},
		{"gt-integers", api.MatchExpression{Op: api.MatchGt, Value: []string{"5"}}, true, "+6", true, false},
		{"gt-leading-zeros", api.MatchExpression{Op: api.MatchGt, Value: []string{"5"}}, true, "007", true, false},
		{"gt-input-not-a-number", api.MatchExpression{Op: api.MatchGt, Value: []string{"5"}}, true, "3.0", false, true},
		{"ge-equal", api.MatchExpression{Op: api.MatchGe, Value: []string{"5"}}, true, "5", true, false},
		{"lt-operand-not-a-number", api.MatchExpression{Op: api.MatchLt, Value: []string{"x1"}}, true, "1", false, true},
		{"le-equal", api.MatchExpression{Op: api.MatchLe, Value: []string{"5"}}, true, "5", true, false},
		{"gtlt-exclusive", api.MatchExpression{Op: api.MatchGtLt, Value: []string{"1", "5"}}, true, "5", false, false},
		{"gele-inclusive", api.MatchExpression{Op: api.MatchGeLe, Value: []string{"1", "5"}}, true, "5", true, false},
		{"gtlt-reversed-bounds-error", api.MatchExpression{Op: api.MatchGtLt, Value: []string{"5", "3"}}, true, "4", false, true},
		{"gt-wrong-value-count", api.MatchExpression{Op: api.MatchGt, Value: []string{"1", "2"}}, true, "4", false, true},
		{"istrue", api.MatchExpression{Op: api.MatchIsTrue}, true, "true", true, false},
		{"isfalse-on-true", api.MatchExpression{Op: api.MatchIsFalse}, true, "true", false, false},
		{"unknown-op-always-errors", api.MatchExpression{Op: "Maybe"}, false, "", false, true},
		{"version-drops-prerelease", api.MatchExpression{Op: api.MatchGe, Value: []string{"6.8"}, Type: api.ValueTypeVersion}, true, "6.8.0-45-generic", true, false},
		{"version-with-v-prefix", api.MatchExpression{Op: api.MatchLt, Value: []string{"v1.2.3"}, Type: api.ValueTypeVersion}, true, "1.2", true, false},
		{"version-four-parts-is-not-a-version", api.MatchExpression{Op: api.MatchGt, Value: []string{"1"}, Type: api.ValueTypeVersion}, true, "1.2.3.4", false, true},
		{"version-gele-range", api.MatchExpression{Op: api.MatchGeLe, Value: []string{"5.4", "6.1"}, Type: api.ValueTypeVersion}, true, "5.15.0", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := compileExpr(&tt.expr)
			got, err := e.eval(tt.present, true, tt.value)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestExprOnFlagsNeverErrorsForValueOps(t *testing.T) {
	e := compileExpr(&api.MatchExpression{Op: api.MatchInRegexp, Value: []string{"["}})
	got, err := e.eval(true, false, "")
	if err != nil || got {
		t.Errorf("flag element: got %v, %v; want false, nil", got, err)
	}
}
