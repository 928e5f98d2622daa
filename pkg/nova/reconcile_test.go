package nova

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

func doc(providers ...Provider) *Document {
	return &Document{SchemaVersion: SchemaVersion, Providers: providers}
}

func found(file, provider int, sev diag.Severity, msg string) Finding {
	return Finding{File: file, Diagnostic: diag.Diagnostic{Severity: sev, Field: providerPath(provider), Message: msg}}
}

func TestReconcileLeavesOutNodesConfiguredByHand(t *testing.T) {
	built := doc(named("n1", "CUSTOM_A"), named("n2", "CUSTOM_A"), named("n3", "CUSTOM_A"))
	hand := []File{{Name: "by-hand.yaml", Doc: doc(
		named("n1", "CUSTOM_A"),
		named("n2"),                       // declares nothing: nova-compute drops it, n2 stays generated
		named("not-rendered", "CUSTOM_A"), // not a node of the fleet: none of nfd-fn's business
		named("n4", "CUSTOM_X"),           // rendered without a provider: the hand entry still wins
	)}}
	got, findings := Reconcile(built, []string{"n1", "n2", "n3", "n4"}, hand, "generated")
	if diff := cmp.Diff(doc(named("n2", "CUSTOM_A"), named("n3", "CUSTOM_A")), got); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
	want := []Finding{
		found(0, 0, diag.Info, "node n1 is configured here by hand, so nfd-fn leaves it out of nfd-fn-providers.yaml"),
		found(0, 3, diag.Info, "node n4 is configured here by hand, so nfd-fn leaves it out of nfd-fn-providers.yaml"),
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if len(built.Providers) != 3 {
		t.Errorf("Reconcile changed the built document: %+v", built.Providers)
	}
}

func TestReconcileReportsWhereTheHandWrittenEntryConflictsWithTheRules(t *testing.T) {
	built := doc(
		Provider{Identification: Identification{Name: "n1"}, Traits: []string{"CUSTOM_AVX512"},
			Inventories: []Inventory{{ResourceClass: "CUSTOM_GPU", Total: 2}}},
		named("n2", "CUSTOM_SRIOV"),
	)
	hand := []File{{Name: "by-hand.yaml", Doc: doc(
		Provider{Identification: Identification{Name: "n1"}, Traits: []string{"CUSTOM_SRIOV", "CUSTOM_RACK_7"},
			Inventories: []Inventory{{ResourceClass: "CUSTOM_GPU", Total: 1}}},
	)}}
	_, findings := Reconcile(built, []string{"n1", "n2"}, hand, "generated")
	// CUSTOM_SRIOV is a trait the rules produce elsewhere, CUSTOM_RACK_7
	// the operator's own and not a conflict.
	want := []Finding{
		found(0, 0, diag.Info, "node n1 is configured here by hand, so nfd-fn leaves it out of nfd-fn-providers.yaml"),
		found(0, 0, diag.Warning, "node n1: conflicts with the rules: resource class CUSTOM_GPU: total is 1 here, the rules produce 2"),
		found(0, 0, diag.Warning, "node n1: conflicts with the rules: trait CUSTOM_AVX512: the rules produce it for this node, but this entry does not list it"),
		found(0, 0, diag.Warning, "node n1: conflicts with the rules: trait CUSTOM_SRIOV: listed here, but the rules do not produce it for this node"),
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestReconcileWarnsWhenGeneratedNamesShadowComputeNode(t *testing.T) {
	built := doc(named("n1", "CUSTOM_A"), named("n2", "CUSTOM_A", "CUSTOM_RACK"), named("n3", "CUSTOM_A"))
	computeNode := Provider{Identification: Identification{UUID: ComputeNode}, Traits: []string{"CUSTOM_RACK"},
		Inventories: []Inventory{{ResourceClass: "CUSTOM_POWER", Total: 1}}}
	onlyTrait := Provider{Identification: Identification{UUID: ComputeNode}, Traits: []string{"CUSTOM_RACK"}}
	hand := []File{
		{Name: "a.yaml", Doc: doc(named("n3", "CUSTOM_A"), computeNode)},
		{Name: "b.yaml", Doc: doc(onlyTrait)},
	}
	_, findings := Reconcile(built, []string{"n1", "n2", "n3"}, hand, "generated")
	// n3 is the operator's and no longer in the generated file; n2 has
	// the trait but not the inventory; n1 has neither.
	want := []Finding{
		found(0, 0, diag.Info, "node n3 is configured here by hand, so nfd-fn leaves it out of nfd-fn-providers.yaml"),
		found(0, 1, diag.Warning, "nova-compute ignores this $COMPUTE_NODE entry for providers named explicitly, and nfd-fn's nfd-fn-providers.yaml names 2 nodes (n1, n2), so those nodes will not get resource class CUSTOM_POWER, trait CUSTOM_RACK from this entry; let the rules produce them, or configure those nodes here by name"),
		found(1, 0, diag.Warning, "nova-compute ignores this $COMPUTE_NODE entry for providers named explicitly, and nfd-fn's nfd-fn-providers.yaml names node n1, so that node will not get trait CUSTOM_RACK from this entry; let the rules produce it, or configure that node here by name"),
		found(1, 0, diag.Error, "uuid $COMPUTE_NODE is already identified at a.yaml providers[1]; nova-compute refuses to start when a provider is identified twice across its provider config files"),
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestReconcileReportsIdentificationsDuplicatedAcrossFiles(t *testing.T) {
	built := doc(named("n1", "CUSTOM_A"), named("n2", "CUSTOM_A"))
	hand := []File{
		{Name: "a.yaml", Doc: doc(named("n1", "CUSTOM_B"), named("legacy", "CUSTOM_L"))},
		{Name: "b.yaml", Doc: doc(named("legacy", "CUSTOM_L"), named("n1", "CUSTOM_C"))},
	}
	got, findings := Reconcile(built, []string{"n1", "n2"}, hand, "generated")
	if diff := cmp.Diff(doc(named("n2", "CUSTOM_A")), got); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
	// n1 is claimed by the first file only; the second use is a duplicate,
	// as is legacy, a provider the rules know nothing of. The generated
	// file no longer names n1, so it duplicates nothing.
	want := []Finding{
		found(0, 0, diag.Info, "node n1 is configured here by hand, so nfd-fn leaves it out of nfd-fn-providers.yaml"),
		found(0, 0, diag.Warning, "node n1: conflicts with the rules: trait CUSTOM_A: the rules produce it for this node, but this entry does not list it"),
		found(1, 1, diag.Error, "name n1 is already identified at a.yaml providers[0]; nova-compute refuses to start when a provider is identified twice across its provider config files"),
		found(1, 0, diag.Error, "name legacy is already identified at a.yaml providers[1]; nova-compute refuses to start when a provider is identified twice across its provider config files"),
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestReconcileReportsDuplicatesInTheGeneratedFileAsItsOwn(t *testing.T) {
	// Findings about the generated file carry the count of hand-written
	// files. nfd-fn never builds a provider for a node it did not render,
	// so this one takes a built document that does.
	built := doc(named("ghost", "CUSTOM_A"))
	hand := []File{{Name: "a.yaml", Doc: doc(named("ghost", "CUSTOM_B"))}}
	_, findings := Reconcile(built, nil, hand, "nfd-fn.yaml")
	want := []Finding{
		found(1, 0, diag.Error, "name ghost is already identified at a.yaml providers[0]; nova-compute refuses to start when a provider is identified twice across its provider config files"),
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
