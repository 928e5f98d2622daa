package e2e

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// imageRepo is the name the image is published under.
const imageRepo = "ghcr.io/nfd-fn/nfd-fn"

// imageRef is the full name `make image` gives the e2e build's image.
const imageRef = imageRepo + ":" + e2eVersion

// imageEntrypoint is where the image keeps nfd-fn.
const imageEntrypoint = "/usr/local/bin/nfd-fn"

// imagePlatforms are the platforms the image index holds.
var imagePlatforms = []string{"linux/amd64", "linux/arm64"}

// builtImage is the archive hack/image.sh writes, built once for all the
// tests that need it.
var builtImage struct {
	once    sync.Once
	archive string
	errOut  string
}

// imageArchive builds the OCI image archive the way `make image` does
// (hack/image.sh, offline with umoci) once, and returns its path.
func imageArchive(t *testing.T) string {
	t.Helper()
	requireTool(t, "umoci")
	// Read what the script uses, so that go test's result cache sees it.
	for _, f := range []string{"../hack/image.sh", "../hack/image/passwd", "../hack/image/group", "../tools/ociindex/layout.go"} {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	builtImage.once.Do(func() {
		archive := filepath.Join(binDir, "nfd-fn-image.tar")
		_, errOut, code := run(t, ".", commandEnv(nil), nil, "bash", "../hack/image.sh", archive, e2eVersion)
		if code == 0 {
			builtImage.archive = archive
		}
		builtImage.errOut = errOut
	})
	if builtImage.archive == "" {
		t.Fatalf("hack/image.sh failed:\n%s", builtImage.errOut)
	}
	return builtImage.archive
}

// ociDescriptor is the part of an OCI descriptor the tests read.
type ociDescriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Annotations map[string]string `json:"annotations"`
	Platform    struct {
		OS           string `json:"os"`
		Architecture string `json:"architecture"`
	} `json:"platform"`
}

// ociImageConfig is the part of an image's config the tests read.
type ociImageConfig struct {
	OS           string `json:"os"`
	Architecture string `json:"architecture"`
	Config       struct {
		User       string            `json:"User"`
		Entrypoint []string          `json:"Entrypoint"`
		Labels     map[string]string `json:"Labels"`
	} `json:"config"`
}

// TestImageArchiveIsAMultiPlatformIndexUnderItsFullName is issue 38's
// point 1 (the archive): index.json holds one image index named in full
// (what `podman load` takes as the name), the index one image per
// platform, and each image runs nfd-fn as 65534:65534 and carries the
// org.opencontainers.image.* labels.
func TestImageArchiveIsAMultiPlatformIndexUnderItsFullName(t *testing.T) {
	files := readTar(t, imageArchive(t))
	var top struct{ Manifests []ociDescriptor }
	decode(t, files, "index.json", &top)
	if len(top.Manifests) != 1 || top.Manifests[0].MediaType != "application/vnd.oci.image.index.v1+json" ||
		top.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != imageRef {
		t.Fatalf("index.json should hold one image index named %s, holds %+v", imageRef, top.Manifests)
	}
	var index struct{ Manifests []ociDescriptor }
	decode(t, files, blobName(top.Manifests[0].Digest), &index)
	var platforms []string
	for _, m := range index.Manifests {
		platform := m.Platform.OS + "/" + m.Platform.Architecture
		platforms = append(platforms, platform)
		var manifest struct{ Config ociDescriptor }
		decode(t, files, blobName(m.Digest), &manifest)
		var config ociImageConfig
		decode(t, files, blobName(manifest.Config.Digest), &config)
		checkImageConfig(t, platform, config)
	}
	if diff := cmp.Diff(imagePlatforms, platforms); diff != "" {
		t.Errorf("the index's platforms (-want +got):\n%s", diff)
	}
}

// checkImageConfig checks one platform's image configuration.
func checkImageConfig(t *testing.T, platform string, config ociImageConfig) {
	t.Helper()
	if got := config.OS + "/" + config.Architecture; got != platform {
		t.Errorf("%s: the config says %s", platform, got)
	}
	if config.Config.User != "65534:65534" || !cmp.Equal(config.Config.Entrypoint, []string{imageEntrypoint}) {
		t.Errorf("%s: user %q, entrypoint %q; want 65534:65534, %s", platform, config.Config.User, config.Config.Entrypoint, imageEntrypoint)
	}
	want := map[string]string{
		"org.opencontainers.image.source":   "https://github.com/nfd-fn/nfd-fn",
		"org.opencontainers.image.version":  e2eVersion,
		"org.opencontainers.image.licenses": "Apache-2.0",
		"org.opencontainers.image.revision": strings.TrimSpace(git(t, "..", "rev-parse", "HEAD")),
	}
	for k, v := range want {
		if config.Config.Labels[k] != v {
			t.Errorf("%s: label %s is %q, want %q", platform, k, config.Config.Labels[k], v)
		}
	}
}

// blobName is where an OCI layout keeps the blob with digest.
func blobName(digest string) string {
	return "blobs/" + strings.Replace(digest, ":", "/", 1)
}

// readTar reads the regular files of a tar archive by name, without a
// leading "./".
func readTar(t *testing.T, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string][]byte{}
	r := tar.NewReader(f)
	for {
		h, err := r.Next()
		if errors.Is(err, io.EOF) {
			return files
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %s: %v", path, h.Name, err)
		}
		files[strings.TrimPrefix(h.Name, "./")] = b
	}
}

// decode unmarshals the file name of files into v.
func decode(t *testing.T, files map[string][]byte, name string, v any) {
	t.Helper()
	b, ok := files[name]
	if !ok {
		t.Fatalf("the archive has no %s", name)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
