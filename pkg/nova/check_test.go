package nova

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func named(name string, traits ...string) Provider {
	return Provider{Identification: Identification{Name: name}, Traits: traits}
}

func TestDuplicatesAcrossFilesAndWithinOne(t *testing.T) {
	computeNode := Provider{Identification: Identification{UUID: ComputeNode}, Traits: []string{"CUSTOM_A"}}
	docs := []*Document{
		{Providers: []Provider{named("n1", "CUSTOM_A"), computeNode, named("n2", "CUSTOM_A"), named("n2", "CUSTOM_B")}},
		{Providers: []Provider{named("n1", "CUSTOM_C"), computeNode, named("n3")}},
		{Providers: []Provider{named("n3", "CUSTOM_D"), named("n1", "CUSTOM_E")}},
	}
	want := []Duplicate{
		{Key: "n1", First: Place{0, 0}, Again: []Place{{1, 0}, {2, 1}}},
		{Key: ComputeNode, First: Place{0, 1}, Again: []Place{{1, 1}}},
		{Key: "n2", First: Place{0, 2}, Again: []Place{{0, 3}}},
	}
	// n3 is named twice, but the first entry declares nothing and
	// nova-compute drops it before looking for duplicates.
	if diff := cmp.Diff(want, Duplicates(docs)); diff != "" {
		t.Errorf("Duplicates (-want +got):\n%s", diff)
	}
}

func TestDiffNamesEveryDisagreement(t *testing.T) {
	four, two, one := int64(4), int64(2), int64(1)
	want := Provider{Identification: Identification{Name: "n1"},
		Traits: []string{"CUSTOM_AVX512", "CUSTOM_SRIOV"},
		Inventories: []Inventory{
			{ResourceClass: "CUSTOM_GPU", Total: 2, Reserved: &one},
			{ResourceClass: "CUSTOM_VFS", Total: 64},
			{ResourceClass: "CUSTOM_LLC", Total: 4},
		}}
	hand := Provider{Identification: Identification{Name: "n1"},
		Traits: []string{"CUSTOM_AVX512", "CUSTOM_FPGA_PRESENT", "CUSTOM_RACK_7"},
		Inventories: []Inventory{
			{ResourceClass: "CUSTOM_GPU", Total: 4},
			{ResourceClass: "CUSTOM_LLC", Total: 4, Reserved: &two},
			{ResourceClass: "CUSTOM_FPGA", Total: four},
			{ResourceClass: "CUSTOM_POWER", Total: 1},
		}}
	// The rules produce CUSTOM_FPGA_PRESENT and CUSTOM_FPGA on other nodes;
	// CUSTOM_RACK_7 and CUSTOM_POWER are the operator's own.
	vocab := Vocabulary{
		Traits:  map[string]bool{"CUSTOM_AVX512": true, "CUSTOM_SRIOV": true, "CUSTOM_FPGA_PRESENT": true},
		Classes: map[string]bool{"CUSTOM_GPU": true, "CUSTOM_VFS": true, "CUSTOM_LLC": true, "CUSTOM_FPGA": true},
	}
	got := Diff(&hand, &want, vocab)
	wantMsgs := []string{
		"resource class CUSTOM_FPGA: listed here, but the rules do not produce it for this node",
		"resource class CUSTOM_GPU: total is 4 here, the rules produce 2; reserved is not set here, the rules set 1",
		"resource class CUSTOM_VFS: the rules produce total 64 for this node, but this entry has no inventory of it",
		"trait CUSTOM_FPGA_PRESENT: listed here, but the rules do not produce it for this node",
		"trait CUSTOM_SRIOV: the rules produce it for this node, but this entry does not list it",
	}
	if diff := cmp.Diff(wantMsgs, got); diff != "" {
		t.Errorf("Diff (-want +got):\n%s", diff)
	}
	if same := Diff(&want, &want, vocab); len(same) != 0 {
		t.Errorf("a provider differs from itself: %v", same)
	}
}

func TestShadowedListsWhatExplicitEntriesHide(t *testing.T) {
	cn := Provider{Identification: Identification{UUID: ComputeNode}, Traits: []string{"CUSTOM_RACK_7"},
		Inventories: []Inventory{{ResourceClass: "CUSTOM_POWER", Total: 1}}}
	explicit := []Provider{
		named("n2", "CUSTOM_AVX512"),
		{Identification: Identification{Name: "n1"}, Traits: []string{"CUSTOM_RACK_7"}, Inventories: []Inventory{{ResourceClass: "CUSTOM_POWER", Total: 1}}},
		named("n3", "CUSTOM_RACK_7"),
		named("n4"),
	}
	nodes, lost := Shadowed(&cn, explicit)
	if diff := cmp.Diff([]string{"n2", "n3"}, nodes); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"resource class CUSTOM_POWER", "trait CUSTOM_RACK_7"}, lost); diff != "" {
		t.Errorf("lost (-want +got):\n%s", diff)
	}
}

func TestInventoryDefaultsCheckAppliesPlacementLimits(t *testing.T) {
	neg, zero, big, ratio := int64(-1), int64(0), int64(MaxInt+1), -0.5
	d := InventoryDefaults{Reserved: &neg, MinUnit: &zero, MaxUnit: &big, StepSize: &zero, AllocationRatio: &ratio}
	got := map[string]string{}
	for k, err := range d.Check() {
		got[k] = err.Error()
	}
	want := map[string]string{
		"reserved":         "reserved is -1; it must not be negative",
		"min_unit":         "min_unit is 0; placement requires at least 1",
		"max_unit":         "max_unit is 2147483648; placement allows at most 2147483647",
		"step_size":        "step_size is 0; placement requires at least 1",
		"allocation_ratio": "allocation_ratio is -0.5; it must be a non-negative number no larger than 3.40282e+38",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Check (-want +got):\n%s", diff)
	}
	one := int64(1)
	if errs := (InventoryDefaults{Reserved: &zero, MinUnit: &one}).Check(); len(errs) != 0 {
		t.Errorf("good defaults refused: %v", errs)
	}
}
