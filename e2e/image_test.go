package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// imageEntrypoint is where the image keeps nfd-fn.
const imageEntrypoint = "/usr/local/bin/nfd-fn"

// nobody is the uid and gid the KRM function spec asks functions to run as.
const nobody = 65534

// TestImageRunsAsNobodyLikeTheHostBinary builds the OCI image archive the
// way `make image` does (hack/image.sh, offline with umoci), unpacks it,
// checks that its configuration runs nfd-fn as 65534:65534, and runs the
// unpacked binary inside the unpacked root file system as 65534 on an
// example ResourceList: the output must be the host binary's, byte for byte.
func TestImageRunsAsNobodyLikeTheHostBinary(t *testing.T) {
	requireTool(t, "umoci")
	requireTool(t, "chroot")
	if os.Geteuid() != 0 {
		if os.Getenv(strictEnv) == "1" {
			t.Fatalf("running the image's root file system as uid %d needs root (chroot), and %s=1", nobody, strictEnv)
		}
		t.Skipf("running the image's root file system as uid %d needs root (chroot)", nobody)
	}
	// Read what the script uses, so that go test's result cache sees it.
	for _, f := range []string{"../hack/image.sh", "../hack/image/passwd", "../hack/image/group"} {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	work := t.TempDir()
	archive := filepath.Join(work, "nfd-fn.tar")
	if _, errOut, code := run(t, ".", commandEnv(nil), nil, "bash", "../hack/image.sh", archive, e2eVersion); code != 0 {
		t.Fatalf("hack/image.sh: exit code %d\n%s", code, errOut)
	}
	bundle := unpackImage(t, archive, work)
	checkRuntimeConfig(t, filepath.Join(bundle, "config.json"))

	input, err := os.ReadFile(filepath.Join(examplesRoot, "render-quickstart", "resourcelist.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	hostOut, _, hostCode := run(t, work, commandEnv(nil), input, filepath.Join(binDir, "nfd-fn"))
	imageOut, errOut, imageCode := run(t, work, []string{"PATH=/usr/local/bin"}, input,
		"chroot", "--userspec=65534:65534", filepath.Join(bundle, "rootfs"), imageEntrypoint)
	if imageCode != hostCode {
		t.Errorf("the image's nfd-fn exited %d, the host's %d\nstderr:\n%s", imageCode, hostCode, errOut)
	}
	if imageOut != hostOut {
		t.Errorf("the image's output differs from the host binary's:\n%s", cmp.Diff(hostOut, imageOut))
	}
}

// unpackImage extracts the archive's OCI layout and unpacks the image
// tagged with the e2e version into a runtime bundle; it returns the bundle.
func unpackImage(t *testing.T, archive, work string) string {
	t.Helper()
	layout := filepath.Join(work, "layout")
	if err := os.Mkdir(layout, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, work, commandEnv(nil), nil, "tar", "-xf", archive, "-C", layout); code != 0 {
		t.Fatalf("extracting %s: %s", archive, errOut)
	}
	bundle := filepath.Join(work, "bundle")
	if _, errOut, code := run(t, work, commandEnv(nil), nil, "umoci", "unpack", "--image", layout+":"+e2eVersion, bundle); code != 0 {
		t.Fatalf("umoci unpack (is the image tagged %s?): %s", e2eVersion, errOut)
	}
	return bundle
}

// checkRuntimeConfig checks the user and command umoci derived from the
// image configuration.
func checkRuntimeConfig(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Process struct {
			User struct {
				UID int `json:"uid"`
				GID int `json:"gid"`
			} `json:"user"`
			Args []string `json:"args"`
		} `json:"process"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if spec.Process.User.UID != nobody || spec.Process.User.GID != nobody {
		t.Errorf("the image runs as %d:%d, want %d:%d", spec.Process.User.UID, spec.Process.User.GID, nobody, nobody)
	}
	if diff := cmp.Diff([]string{imageEntrypoint}, spec.Process.Args); diff != "" {
		t.Errorf("the image's command (-want +got):\n%s", diff)
	}
}
