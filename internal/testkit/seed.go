package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// MaxSeedSize is the largest file SeedFiles gives a fuzz target: larger
// ones slow every fuzzing run and add no shape the small ones lack.
const MaxSeedSize = 32 << 10

// SeedFiles adds to f's corpus every file the glob patterns match that is
// smaller than MaxSeedSize, so fuzz targets start from the project's
// real fixtures (testdata/validate, cluster exports, hostile inputs).
func SeedFiles(f *testing.F, patterns ...string) {
	f.Helper()
	for _, pattern := range patterns {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatalf("seed pattern %q: %v", pattern, err)
		}
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && len(data) < MaxSeedSize {
				f.Add(data)
			}
		}
	}
}
