package nova

import (
	"fmt"
	"sort"
)

// SchemaVersion is the provider config schema version nfd-fn writes.
const SchemaVersion = "1.0"

// Limits that Nova's schema and placement's inventory API enforce.
const (
	// MaxInt is placement's upper bound for every integer inventory field
	// (a signed 32-bit database column).
	MaxInt = 2147483647
	// MaxAllocationRatio is placement's upper bound for allocation_ratio
	// (a single-precision database column).
	MaxAllocationRatio = 3.40282e38
	// MaxNameLength is the longest resource class or trait name.
	MaxNameLength = 255
	// MaxProviderNameLength is the longest identification.name.
	MaxProviderNameLength = 200
)

// ComputeNode is the uuid sentinel that applies a provider entry to every
// compute node nova-compute manages and that no other entry names.
const ComputeNode = "$COMPUTE_NODE"

// CustomPrefix starts every resource class and trait a provider config may
// declare.
const CustomPrefix = "CUSTOM_"

// Document is one provider config file.
type Document struct {
	// SchemaVersion is meta.schema_version, e.g. "1.0".
	SchemaVersion string
	// Providers are the providers[] entries in file order. Parse keeps an
	// entry for every element, even unreadable ones, so that indexes match
	// the file.
	Providers []Provider
}

// Provider is one providers[] entry.
type Provider struct {
	Identification Identification
	// Inventories are inventories.additional, one per resource class, sorted
	// by resource class in documents that Build makes.
	Inventories []Inventory
	// Traits are traits.additional, sorted in documents that Build makes.
	Traits []string
}

// IsEmpty reports whether the provider declares nothing; nova-compute
// ignores such entries (with a warning) before it looks for duplicates.
func (p *Provider) IsEmpty() bool { return len(p.Inventories) == 0 && len(p.Traits) == 0 }

// Inventory returns the inventory of a resource class, or nil.
func (p *Provider) Inventory(class string) *Inventory {
	for i := range p.Inventories {
		if p.Inventories[i].ResourceClass == class {
			return &p.Inventories[i]
		}
	}
	return nil
}

// HasTrait reports whether the provider lists the trait.
func (p *Provider) HasTrait(trait string) bool {
	for _, t := range p.Traits {
		if t == trait {
			return true
		}
	}
	return false
}

// Identification names the resource provider an entry configures: exactly
// one of UUID (possibly ComputeNode) and Name is set in a valid entry.
type Identification struct {
	UUID string
	Name string
}

// Key is the value nova-compute uses to find duplicate identifications.
func (id Identification) Key() string {
	if id.UUID != "" {
		return id.UUID
	}
	return id.Name
}

// String describes the identification for messages: name worker-1.
func (id Identification) String() string {
	switch {
	case id.UUID != "":
		return "uuid " + id.UUID
	case id.Name != "":
		return "name " + id.Name
	}
	return "no identification"
}

// Inventory is one resource class of inventories.additional. Optional
// fields left nil get placement's defaults.
type Inventory struct {
	ResourceClass   string
	Total           int64
	Reserved        *int64
	MinUnit         *int64
	MaxUnit         *int64
	StepSize        *int64
	AllocationRatio *float64
}

// fields lists the inventory's set fields in schema order with their
// values formatted, for comparisons and messages.
func (inv *Inventory) fields() []fieldValue {
	out := []fieldValue{{"total", fmt.Sprint(inv.Total)}}
	for _, f := range []struct {
		name string
		v    *int64
	}{{"reserved", inv.Reserved}, {"min_unit", inv.MinUnit}, {"max_unit", inv.MaxUnit}, {"step_size", inv.StepSize}} {
		if f.v != nil {
			out = append(out, fieldValue{f.name, fmt.Sprint(*f.v)})
		}
	}
	if inv.AllocationRatio != nil {
		out = append(out, fieldValue{"allocation_ratio", formatRatio(*inv.AllocationRatio)})
	}
	return out
}

type fieldValue struct{ name, value string }

// providerPath is the path of providers[i].
func providerPath(i int) string { return fmt.Sprintf("providers[%d]", i) }

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
