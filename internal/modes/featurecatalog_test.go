package modes

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// featureCatalogData holds rules reading a network-topology producer's
// features (NFD #2549) with a misspelt element and a misspelt feature,
// and that producer's catalogue, as a file and in a functionConfig.
const featureCatalogData = "../../testdata/feature-catalog/"

// TestFeatureCatalogMakesTyposInDeclaredFeaturesErrors: without a
// catalogue, third-party features are warnings (NFD010, NFD016); with
// one, given as --feature-catalog FILE or as the functionConfig's
// featureCatalog, the misspelt element and feature are errors with the
// declared name proposed, and the reference to a declared element
// resolves.
func TestFeatureCatalogMakesTyposInDeclaredFeaturesErrors(t *testing.T) {
	validate := func(t *testing.T, flags SettingsFlags, o ValidateFilesOptions) string {
		t.Helper()
		f := OpenFiles([]string{featureCatalogData + "rules.yaml"}, nil)
		defer f.Close()
		if _, err := f.LoadSettings(flags); err != nil {
			t.Fatal(err)
		}
		ds, _, err := ValidateFiles(f, o)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := diag.WriteText(&b, ds); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	out := validate(t, SettingsFlags{}, ValidateFilesOptions{})
	if strings.Contains(out, "error:") || !strings.Contains(out, "warning: NodeFeatureRule/fabric-placement spec.rules[1].matchFeatures[0].feature") {
		t.Errorf("without a catalogue: want warnings only:\n%s", out)
	}
	for name, given := range map[string]struct {
		flags SettingsFlags
		o     ValidateFilesOptions
	}{
		"flag":           {o: ValidateFilesOptions{FeatureCatalog: featureCatalogData + "catalog.yaml"}},
		"functionConfig": {flags: SettingsFlags{Config: featureCatalogData + "config.yaml"}},
	} {
		t.Run(name, func(t *testing.T) {
			out := validate(t, given.flags, given.o)
			for _, want := range []string{
				`rules.yaml:13:13: error: NodeFeatureRule/fabric-placement spec.rules[0].matchFeatures[0].matchExpressions.fabric-teir-0: feature topograph.network has no element "fabric-teir-0": did you mean "fabric-tier-0"? [NFD011]`,
				`rules.yaml:18:20: error: NodeFeatureRule/fabric-placement spec.rules[1].matchFeatures[0].feature: feature "topograph.netwrok" is not in the feature catalogue: did you mean "topograph.network"? [NFD010]`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("want %q in:\n%s", want, out)
				}
			}
			if strings.Contains(out, "[NFD016]") {
				t.Errorf("the reference to a declared element does not resolve:\n%s", out)
			}
		})
	}
}
