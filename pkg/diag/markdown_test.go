package diag

import (
	"regexp"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
)

// TestChecksDocIsGeneratedFromTheCatalogue keeps docs/checks.md in step
// with the catalogue (go test ./pkg/diag -update rewrites it).
func TestChecksDocIsGeneratedFromTheCatalogue(t *testing.T) {
	golden.Check(t, "../../docs/checks.md", []byte(CatalogueMarkdown()))
}

// TestCatalogueIDsAreStableAndUnique checks the IDs' form and order and
// that every check has a name, an example and a fix.
func TestCatalogueIDsAreStableAndUnique(t *testing.T) {
	id := regexp.MustCompile(`^NFD\d{3}$`)
	names := map[string]bool{}
	for i, c := range Catalogue {
		if !id.MatchString(c.ID) || (i > 0 && c.ID <= Catalogue[i-1].ID) {
			t.Errorf("check %d: ID %q is not NFDnnn in increasing order", i, c.ID)
		}
		if names[c.Name] || c.Name == "" || c.Summary == "" || c.Example == "" || c.Fix == "" {
			t.Errorf("check %s: name %q is a duplicate or a part is missing", c.ID, c.Name)
		}
		names[c.Name] = true
	}
}

// TestEveryCheckHasItsSeverities checks that the severity table covers
// exactly the catalogue, so docs/checks.md states every check's severity.
func TestEveryCheckHasItsSeverities(t *testing.T) {
	for _, c := range Catalogue {
		if len(Severities[c.ID]) == 0 {
			t.Errorf("check %s %s has no severity in Severities", c.ID, c.Name)
		}
	}
	for id := range Severities {
		if _, ok := Lookup(id); !ok {
			t.Errorf("Severities names %s, which is not in the catalogue", id)
		}
	}
}
