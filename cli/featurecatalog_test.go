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

// TestFeatureCatalogMakesTyposInDeclaredFeaturesErrors: without a
// catalogue, third-party features are warnings (NFD010, NFD016) and
// validate exits 0; with one, given as --feature-catalog FILE or as the
// functionConfig's featureCatalog, the misspelt element and feature are
// errors with the declared name proposed, the reference to a declared
// element resolves, and validate exits 1.
func TestFeatureCatalogMakesTyposInDeclaredFeaturesErrors(t *testing.T) {
	rules := featureCatalogData + "rules.yaml"
	stdout, _, code := testkit.Command(Main, "", "validate", rules)
	if code != 0 || strings.Contains(stdout, "error:") || !strings.Contains(stdout, "warning: NodeFeatureRule/fabric-placement spec.rules[1].matchFeatures[0].feature") {
		t.Errorf("without a catalogue: exit %d, want 0 and warnings only:\n%s", code, stdout)
	}
	for name, args := range map[string][]string{
		"flag":           {"--feature-catalog", featureCatalogData + "catalog.yaml"},
		"functionConfig": {"--config", featureCatalogData + "config.yaml"},
	} {
		t.Run(name, func(t *testing.T) {
			stdout, _, code := testkit.Command(Main, "", append(append([]string{"validate"}, args...), rules)...)
			for _, want := range []string{
				`rules.yaml:13:13: error: NodeFeatureRule/fabric-placement spec.rules[0].matchFeatures[0].matchExpressions.fabric-teir-0: feature topograph.network has no element "fabric-teir-0": did you mean "fabric-tier-0"? [NFD011]`,
				`rules.yaml:18:20: error: NodeFeatureRule/fabric-placement spec.rules[1].matchFeatures[0].feature: feature "topograph.netwrok" is not in the feature catalogue: did you mean "topograph.network"? [NFD010]`,
			} {
				if code != 1 || !strings.Contains(stdout, want) {
					t.Errorf("exit %d, want 1 and %q in:\n%s", code, want, stdout)
				}
			}
			if strings.Contains(stdout, "[NFD016]") {
				t.Errorf("the reference to a declared element does not resolve:\n%s", stdout)
			}
		})
	}
}

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
