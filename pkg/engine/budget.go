package engine

import (
	"fmt"
	"reflect"
	"time"
)

// Template execution limits. Each execution of one labelsTemplate or
// varsTemplate, for one rule on one node, gets this budget; a template that
// exceeds it fails the rule on that node with a *BudgetError. nfd-master
// has none of these limits (only MaxTemplateSize), so a template that
// exceeds them is one nfd-master would run for very long or run out of
// memory on.
const (
	// MaxTemplateSize caps the text of a template, as nfd-master does: a
	// longer template fails to parse.
	MaxTemplateSize = 64 << 10
	// MaxTemplateOutput caps the expanded text of one template.
	MaxTemplateOutput = 64 << 10
	// MaxTemplateSteps caps the work of one execution: every function
	// call, range iteration and template invocation is one step, every
	// element a function has to walk (a list item, a map entry) one more;
	// the slow sprig functions cost more (see expensiveFuncs).
	MaxTemplateSteps = 1_000_000
	// MaxTemplateValue caps the size in bytes of any one value a template
	// function takes or makes (a string, or a list or dict counted
	// deeply), checked before the function runs when its result size can
	// be told from its arguments.
	MaxTemplateValue = 256 << 10
	// MaxTemplateAlloc caps the bytes all function results of one
	// execution add up to.
	MaxTemplateAlloc = 16 << 20
	// MaxTemplateTime is a wall-clock backstop for one execution. The
	// other limits are deterministic and normally trip first. A template
	// that exceeds it once is not run again in the run: it fails on every
	// later node at once, with the same error, so that a run's time stays
	// linear in its nodes with a small constant.
	MaxTemplateTime = 2 * time.Second
)

// limitTime is the Limit of a BudgetError for MaxTemplateTime.
const limitTime = "time"

// BudgetError reports a template execution that exceeded one of its
// limits.
type BudgetError struct {
	// Limit names the limit: "steps", "value size", "allocation", "output"
	// or "time".
	Limit string
	// Func is the template function that was running, if any.
	Func string
	// Detail says by how much, when known.
	Detail string
}

func (e *BudgetError) Error() string {
	s := "template exceeded its " + e.Limit + " budget"
	if e.Func != "" {
		s += " in " + e.Func
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// budget is what is left of one template execution's limits.
type budget struct {
	steps    int64
	alloc    int64
	calls    int
	deadline time.Time
	err      error
	now      func() time.Time
}

// budgetClock is the clock of the time budget; tests of the other
// limits freeze it, so that a slow machine cannot turn them into a time
// budget error.
var budgetClock = time.Now

func (b *budget) reset() {
	if b.now == nil {
		b.now = budgetClock
	}
	*b = budget{steps: MaxTemplateSteps, alloc: MaxTemplateAlloc, deadline: b.now().Add(MaxTemplateTime), now: b.now}
}

// fail records the first budget error; later work stops at once.
func (b *budget) fail(e *BudgetError) error {
	if b.err == nil {
		b.err = e
	}
	return b.err
}

// spend takes n steps; it also checks the clock every 64 calls.
func (b *budget) spend(fn string, n int64) error {
	if b.err != nil {
		return b.err
	}
	b.steps -= n
	if b.steps < 0 {
		return b.fail(&BudgetError{Limit: "steps", Func: fn, Detail: fmt.Sprintf("more than %d", MaxTemplateSteps)})
	}
	b.calls++
	if b.calls%64 == 0 || n > 1000 {
		if b.now().After(b.deadline) {
			return b.fail(&BudgetError{Limit: limitTime, Func: fn, Detail: fmt.Sprintf("more than %v", MaxTemplateTime)})
		}
	}
	return nil
}

// checkValue fails when a value of size bytes is too large.
func (b *budget) checkValue(fn string, size int64) error {
	if size > MaxTemplateValue {
		return b.fail(&BudgetError{Limit: "value size", Func: fn, Detail: fmt.Sprintf("%d bytes or more, limit %d", size, MaxTemplateValue)})
	}
	return nil
}

// allocate charges size bytes of results.
func (b *budget) allocate(fn string, size int64) error {
	if err := b.checkValue(fn, size); err != nil {
		return err
	}
	b.alloc -= size
	if b.alloc < 0 {
		return b.fail(&BudgetError{Limit: "allocation", Func: fn, Detail: fmt.Sprintf("more than %d bytes", MaxTemplateAlloc)})
	}
	return nil
}

// deepSize measures v as the bytes its printed form takes at least: a
// string its length, a number 8, a list or map the sum of its elements
// plus one per element. Shared and cyclic structure is counted each time
// it is reached, as printing or copying it would. The walk stops as soon
// as the size exceeds limit; nodes is the number of values visited.
func deepSize(v reflect.Value, limit int64) (size, nodes int64) {
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		return 1 + int64(v.Len()), 1
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return 9, 1
	}
	stack := []reflect.Value{v}
	for len(stack) > 0 && size <= limit {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nodes++
		size++
		switch v.Kind() {
		case reflect.Invalid:
		case reflect.String:
			size += int64(v.Len())
		case reflect.Interface, reflect.Pointer:
			if !v.IsNil() {
				stack = append(stack, v.Elem())
			}
		case reflect.Slice, reflect.Array:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				size += int64(v.Len())
				continue
			}
			for i := v.Len() - 1; i >= 0 && int64(len(stack)) <= limit; i-- {
				stack = append(stack, v.Index(i))
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() && int64(len(stack)) <= limit {
				stack = append(stack, it.Key(), it.Value())
			}
		default:
			size += 8
		}
	}
	return size, nodes
}

// shallowSize is the bytes a function result adds: a string's length, or
// 16 bytes per list item or map entry.
func shallowSize(v reflect.Value) int64 {
	switch v.Kind() {
	case reflect.String:
		return int64(v.Len())
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return 8
		}
		return shallowSize(v.Elem())
	case reflect.Slice, reflect.Array, reflect.Map:
		return 16 * int64(v.Len())
	}
	return 8
}
