package v1alpha1

// MatchOp is the operator of a MatchExpression.
type MatchOp string

// The match operators. Each documents how many values it takes.
const (
	// MatchAny matches always; takes no values.
	MatchAny MatchOp = ""
	// MatchIn matches when the input equals one of the values (1 or more).
	MatchIn MatchOp = "In"
	// MatchNotIn matches when the input equals none of the values (1 or more).
	MatchNotIn MatchOp = "NotIn"
	// MatchInRegexp matches when the input matches one of the regexps (1 or more).
	MatchInRegexp MatchOp = "InRegexp"
	// MatchExists matches when the element exists; takes no values.
	MatchExists MatchOp = "Exists"
	// MatchDoesNotExist matches when the element does not exist; no values.
	MatchDoesNotExist MatchOp = "DoesNotExist"
	// MatchGt matches when the input is greater than the value (exactly 1).
	// Gt, Ge, Lt, Le, GtLt and GeLe compare integers, or versions with
	// type "version"; any other type fails the expression where the
	// element is present.
	MatchGt MatchOp = "Gt"
	// MatchGe matches when the input is greater than or equal to the value (exactly 1).
	MatchGe MatchOp = "Ge"
	// MatchLt matches when the input is less than the value (exactly 1).
	MatchLt MatchOp = "Lt"
	// MatchLe matches when the input is less than or equal to the value (exactly 1).
	MatchLe MatchOp = "Le"
	// MatchGtLt matches when the input is strictly between the values
	// (exactly 2). Integer bounds must be increasing; version bounds are
	// not checked (a reversed version range never matches).
	MatchGtLt MatchOp = "GtLt"
	// MatchGeLe matches when the input is between the values, inclusive
	// (exactly 2). Integer bounds must be increasing; equal version bounds
	// are a valid range.
	MatchGeLe MatchOp = "GeLe"
	// MatchIsTrue matches when the input is "true"; takes no values.
	MatchIsTrue MatchOp = "IsTrue"
	// MatchIsFalse matches when the input is "false"; takes no values.
	MatchIsFalse MatchOp = "IsFalse"
)
