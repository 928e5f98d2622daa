package depcheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// placeKey is a use of kioutil's path or index annotation by name.
var placeKey = regexp.MustCompile(`kioutil\.(Legacy)?(Path|Index)Annotation`)

// TestOnlyKrmPlaceKeysNamesThePlaceAnnotations keeps the path/index
// annotation quartet in one place (internal/krm/placekeys.go): code that
// writes or reads them by hand drifts from kpt's pairing of current and
// legacy keys.
func TestOnlyKrmPlaceKeysNamesThePlaceAnnotations(t *testing.T) {
	const owner = "internal/krm/placekeys.go"
	var users []string
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "tools" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || rel == owner {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if placeKey.Match(b) {
			users = append(users, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(users) > 0 {
		t.Errorf("%v name kioutil's path/index annotations; use %s (krm.PlaceKeys, ReadPlace, SetPlace, PlaceAnnotations, CopyPlace)", users, owner)
	}
}
