package cli

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// featureCatalogData holds rules reading a network-topology producer's
// features (NFD #2549) with a misspelt element and a misspelt feature,
// and that producer's catalogue, as a file and in a functionConfig.
const featureCatalogData = "../testdata/feature-catalog/"

// TestFeatureCatalogRefusesABadCatalogue: a catalogue declaring a
// feature in nfd-worker's own domain, or of an unknown type, is bad
// usage naming the file and entry.
func TestFeatureCatalogRefusesABadCatalogue(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"builtin.yaml": "features:\n  - {name: cpu.mine, type: attribute}\n",
		"type.yaml":    "features:\n  - {name: acme.gpu, type: attributes}\n",
	})
	for file, want := range map[string]string{"builtin.yaml": `features[0].name "cpu.mine": nfd-worker owns domain "cpu"`, "type.yaml": `features[0].type "attributes": want flag, attribute or instance`} {
		_, stderr, code := testkit.Command(Main, "", "validate", "--feature-catalog", dir+"/"+file, featureCatalogData+"rules.yaml")
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, want 2 and %q in:\n%s", file, code, want, stderr)
		}
	}
}

// TestFeatureCatalogAppliesToEveryTestSuite: nfd-fn test
// --feature-catalog FILE (the real binary) reads the catalogue as
// validate does and applies it to every suite: the RuleTest expecting
// the typos as errors fails without it and passes with it; a catalogue
// that cannot be read is bad usage naming the flag and the file.
func TestFeatureCatalogAppliesToEveryTestSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := testkit.Binary(t)
	suite := featureCatalogData + "fabric.ruletest.yaml"
	without := runBinary(t, bin, nil, "test", suite)
	if without.code != 1 || !strings.Contains(without.stdout, `fabric.ruletest.yaml:11: finding NFD011 (unknown-element) on NodeFeatureRule/fabric-placement: expected, got not reported`) {
		t.Errorf("without a catalogue: exit %d, want 1 and NFD011 not reported:\n%s%s", without.code, without.stdout, without.stderr)
	}
	with := runBinary(t, bin, nil, "test", "--feature-catalog", featureCatalogData+"catalog.yaml", suite)
	if with.code != 0 || !strings.Contains(with.stdout, "PASS  fabric-typos") {
		t.Errorf("with --feature-catalog: exit %d, want 0 and the suite passing:\n%s%s", with.code, with.stdout, with.stderr)
	}
	bad := runBinary(t, bin, nil, "test", "--feature-catalog", featureCatalogData+"no-such.yaml", suite)
	if bad.code != 2 || !strings.Contains(bad.stderr, "--feature-catalog:") || !strings.Contains(bad.stderr, "no-such.yaml") {
		t.Errorf("unreadable catalogue: exit %d, want 2 naming the flag and file:\n%s", bad.code, bad.stderr)
	}
}

// TestFeatureCatalogAppliesToRenderOverFiles: nfd-fn render
// --feature-catalog FILE over files (the real binary) makes the typos in
// declared features error results at their fields, and exits 1; without
// it they are warnings and render exits 0.
func TestFeatureCatalogAppliesToRenderOverFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := testkit.Binary(t)
	rules := featureCatalogData + "rules.yaml"
	without := runBinary(t, bin, nil, "render", rules)
	if without.code != 0 || len(testkit.Read(t, []byte(without.stdout)).WithCheck("unknown-element")) != 0 {
		t.Errorf("without a catalogue: exit %d, want 0 and no NFD011:\n%s", without.code, without.stderr)
	}
	with := runBinary(t, bin, nil, "render", "--feature-catalog", featureCatalogData+"catalog.yaml", rules)
	if with.code != 1 {
		t.Errorf("with --feature-catalog: exit %d, want 1:\n%s", with.code, with.stderr)
	}
	list := testkit.Read(t, []byte(with.stdout))
	for check, field := range map[string]string{
		"unknown-element": "spec.rules[0].matchFeatures[0].matchExpressions.fabric-teir-0",
		"unknown-feature": "spec.rules[1].matchFeatures[0].feature",
	} {
		rs := list.WithCheck(check)
		if len(rs) != 1 || rs[0].Severity != "error" || rs[0].Field.Path != field {
			t.Errorf("%s: got %+v, want one error result at %s", check, rs, field)
		}
	}
}
