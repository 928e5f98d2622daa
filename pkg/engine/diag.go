package engine

import (
	"errors"
	"fmt"
)

// Severity of a Diagnostic.
type Severity string

// Diagnostic severities, as KRM result severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// ObjectRef names the object a diagnostic is about.
type ObjectRef struct {
	Kind      string
	Namespace string
	Name      string
}

func (o ObjectRef) String() string {
	if o.Namespace != "" {
		return o.Kind + " " + o.Namespace + "/" + o.Name
	}
	return o.Kind + " " + o.Name
}

// Diagnostic is one problem found while compiling or evaluating rules. It
// points at the object and the field path inside it.
type Diagnostic struct {
	Severity Severity
	Object   ObjectRef
	// Field is the path of the offending field inside Object, e.g.
	// spec.rules[2].matchFeatures[0].matchExpressions.vendor.op.
	Field   string
	Message string
	// Suggestion, when set, is a replacement for the field's value that
	// fixes the problem (the right spelling of an operator, say).
	Suggestion string
	// Nodes lists the nodes the problem applies to, when it is per node.
	Nodes []string
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s: %s", d.Severity, d.Object, d.Field, d.Message)
}

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
