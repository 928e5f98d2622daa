package krm

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"unsafe"
)

// ErrVanished is what reading a mapped input whose file was cut short
// (truncated, or rewritten in place) while nfd-fn read it returns: the
// pages past the new end are gone, and touching them faults.
var ErrVanished = errors.New("the file was truncated while nfd-fn read it (its mapped pages vanished); run again once it is complete")

// mappings are the mappings of inputs with the names of the files they
// map, so that a fault in one (FaultError) names its input: the live
// ones, and the last unmapped ones, for a fault is recovered only after
// the panic has unwound through the deferred Close of its input.
var mappings struct {
	mu   sync.Mutex
	live []mappedRange
	gone []mappedRange
}

// keepGone is how many unmapped inputs mappings remembers.
const keepGone = 64

// mappedRange is one mapped input: where it lies and what it maps.
type mappedRange struct {
	start, end uintptr
	name       string
}

// register records that data maps the file called name.
func register(data []byte, name string) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	mappings.mu.Lock()
	defer mappings.mu.Unlock()
	mappings.live = append(mappings.live, mappedRange{start: start, end: start + uintptr(len(data)), name: name})
}

// unregister forgets the mapping data, before it is unmapped.
func unregister(data []byte) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	mappings.mu.Lock()
	defer mappings.mu.Unlock()
	for i, m := range mappings.live {
		if m.start == start {
			mappings.live = append(mappings.live[:i], mappings.live[i+1:]...)
			mappings.gone = append(mappings.gone, m)
			if len(mappings.gone) > keepGone {
				mappings.gone = mappings.gone[1:]
			}
			return
		}
	}
}

// mappedName is the name of the input mapped at addr (or, lately, the
// last one unmapped there), "" for none.
func mappedName(addr uintptr) string {
	mappings.mu.Lock()
	defer mappings.mu.Unlock()
	for _, m := range mappings.live {
		if addr >= m.start && addr < m.end {
			return m.name
		}
	}
	for _, m := range slices.Backward(mappings.gone) {
		if addr >= m.start && addr < m.end {
			return m.name
		}
	}
	return ""
}

// FaultError is the error that r, a value recovered from a panic on a
// goroutine that runs with debug.SetPanicOnFault, stands for when it is
// a fault on a page of a mapped input: ErrVanished, naming the input.
// It returns nil for any other panic, which the caller raises again.
func FaultError(r any) error {
	fault, ok := r.(interface{ Addr() uintptr })
	if !ok {
		return nil
	}
	name := mappedName(fault.Addr())
	if name == "" {
		return nil
	}
	return fmt.Errorf("reading %s: %w", name, ErrVanished)
}
