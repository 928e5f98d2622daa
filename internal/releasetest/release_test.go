// Package releasetest checks that the release named in pkg/version is the
// one the changelog, the docs and the examples show.
package releasetest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// versionRefs find the places the docs name a release: image tags and
// pre-commit revs.
var versionRefs = []*regexp.Regexp{
	regexp.MustCompile(`ghcr\.io/nfd-fn/nfd-fn:(v[0-9][0-9A-Za-z.\-]*)`),
	regexp.MustCompile(`(?m)^\s*rev:\s*(v[0-9][0-9A-Za-z.\-]*)`),
}

// TestReleaseAgreesEverywhere checks that CHANGELOG.md's top entry, the
// image tags and the pre-commit revs in the docs are pkg/version.Release,
// and that a development build says so.
func TestReleaseAgreesEverywhere(t *testing.T) {
	root := "../.."
	changelog := read(t, filepath.Join(root, "CHANGELOG.md"))
	if top := regexp.MustCompile(`(?m)^## (v\S+)`).FindStringSubmatch(changelog); top == nil || top[1] != version.Release {
		t.Errorf("CHANGELOG.md's top entry is %v, want %s", top, version.Release)
	}
	if !strings.HasPrefix(version.Version, version.Release) {
		t.Errorf("Version %q is not a build of Release %q", version.Version, version.Release)
	}
	files := []string{"README.md", "Dockerfile", "metadata.yaml"}
	for _, pattern := range []string{"docs/*.md", "examples/*/README.md", "examples/*/*.yaml"} {
		m, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			files = append(files, rel)
		}
	}
	found := 0
	for _, f := range files {
		text := read(t, filepath.Join(root, f))
		for _, re := range versionRefs {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				found++
				if m[1] != version.Release && m[1] != "TAG" {
					t.Errorf("%s names %s, want %s", f, m[0], version.Release)
				}
			}
		}
	}
	if found == 0 {
		t.Error("no image tag or pre-commit rev found in the docs: the test reads the wrong files")
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}
