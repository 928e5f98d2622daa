package releasetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// pinRefs find the lines of the docs that fetch nfd-fn by a name that
// needs a release: the image tag, the pre-commit rev, go install of a
// version, kpt pkg get of the repository.
var pinRefs = regexp.MustCompile(`ghcr\.io/nfd-fn/nfd-fn:v|^\s*rev:|kpt pkg get https://|nfd-fn/nfd-fn@v`)

// untagged is what a line near each of them says while no release is
// tagged.
const untagged = "not tagged yet"

// pinNear is how many lines either side of a pin may hold its note (the
// comment above a command, the sentence closing a paragraph).
const pinNear = 4

// TestEveryPinSaysNoReleaseIsTaggedYet is issue 26's point 7, with issue
// 38's README rule: while the repository has no tag for
// pkg/version.Release, every documented `rev:`, image tag, `go install
// ...@vX` and `kpt pkg get` line of docs/ and the examples has a note near
// it saying the release is not tagged yet; the README says so once, in
// one place, and shows the commit form beside every such line instead.
// Once the tag exists, the notes must go.
func TestEveryPinSaysNoReleaseIsTaggedYet(t *testing.T) {
	root := "../.."
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot tell whether the release is tagged")
	}
	out, err := exec.Command("git", "-C", root, "tag", "--list", version.Release).Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): cannot tell whether the release is tagged", err)
	}
	tagged := strings.TrimSpace(string(out)) != ""
	var files []string
	for _, pattern := range []string{"README.md", "docs/*.md", "docs/ci/*", "examples/*/README.md", "examples/*/*.yaml"} {
		m, _ := filepath.Glob(filepath.Join(root, pattern))
		files = append(files, m...)
	}
	pins := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		rel, _ := filepath.Rel(root, f)
		if rel == "README.md" {
			pins += checkReadmePins(t, lines, tagged)
			continue
		}
		for i, l := range lines {
			if !pinRefs.MatchString(l) || strings.Contains(l, "<commit>") {
				continue
			}
			pins++
			near := strings.Join(lines[max(0, i-pinNear):min(len(lines), i+pinNear+1)], "\n")
			switch says := strings.Contains(near, untagged); {
			case !tagged && !says:
				t.Errorf("%s:%d: %q: %s is not tagged, and no line near says %q", rel, i+1, strings.TrimSpace(l), version.Release, untagged)
			case tagged && says:
				t.Errorf("%s:%d: %s is tagged now: drop the %q note", rel, i+1, version.Release, untagged)
			}
		}
	}
	if pins < 20 {
		t.Errorf("found %d pins in the docs; the README and the examples alone hold more", pins)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !tagged && !strings.Contains(string(readme), "pre-commit autoupdate --bleeding-edge --freeze") {
		t.Error("README.md does not say how to pin a commit for pre-commit")
	}
}

// commitForm is what shows the way in from a commit beside a release pin.
var commitForm = regexp.MustCompile(`<commit>|@main|COMMIT|make image`)

// checkReadmePins checks README.md's pins: one note in all while the
// release is untagged (none once it is), and the commit form near every
// pin. It returns how many pins it saw.
func checkReadmePins(t *testing.T, lines []string, tagged bool) int {
	t.Helper()
	notes, pins := 0, 0
	for i, l := range lines {
		if strings.Contains(l, untagged) {
			notes++
		}
		if !pinRefs.MatchString(l) {
			continue
		}
		pins++
		near := strings.Join(lines[max(0, i-pinNear):min(len(lines), i+pinNear+1)], "\n")
		if !tagged && !commitForm.MatchString(near) {
			t.Errorf("README.md:%d: %q: %s is not tagged, and no line near shows the commit form (%s)", i+1, strings.TrimSpace(l), version.Release, commitForm)
		}
	}
	switch {
	case !tagged && notes != 1:
		t.Errorf("README.md says %q %d times; it should say so once, in one place (Install and pin a version)", untagged, notes)
	case tagged && notes != 0:
		t.Errorf("README.md: %s is tagged now: drop the %q note", version.Release, untagged)
	}
	return pins
}
