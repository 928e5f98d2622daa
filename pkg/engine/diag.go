package engine

import (
	"errors"
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Severity, ObjectRef and Diagnostic are nfd-fn's one problem model,
// pkg/diag; the engine reports in it.
type (
	Severity   = diag.Severity
	ObjectRef  = diag.ObjectRef
	Diagnostic = diag.Diagnostic
)

// The severities, as the engine names them.
const (
	SeverityError   = diag.Error
	SeverityWarning = diag.Warning
	SeverityInfo    = diag.Info
)

// EvalError is a rule failure on one node: nfd-master would log it and the
// rule would contribute nothing on that node.
type EvalError struct {
	// Object is the NodeFeatureRule or NodeFeatureGroup holding the rule.
	Object ObjectRef
	// RuleName is the rule's name; Field the path of the failing part.
	RuleName string
	// RuleField is the path of the rule, e.g. spec.rules[2].
	RuleField string
	Field     string
	Err       error
}

// IsStatic reports whether the failure was already reported by Compile.
func (e *EvalError) IsStatic() bool {
	var se *StaticError
	return errors.As(e.Err, &se)
}

// Unwrap returns the failure, so that errors.As finds a *BudgetError or
// *StaticError through an EvalError.
func (e *EvalError) Unwrap() error { return e.Err }

func (e *EvalError) Error() string {
	return fmt.Sprintf("%s/%s: %v", e.Object.Name, e.RuleName, e.Err)
}
