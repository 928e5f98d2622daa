package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestDiscoverFailsClosedOnABadHostRoot is issue 34's §3 first point: a
// --host-root that does not exist, or is a file, exits 1 naming it, and
// prints no NodeFeature (which would carry the CPU of the machine nfd-fn
// runs on).
func TestDiscoverFailsClosedOnABadHostRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, root, want string }{
		{"missing", filepath.Join(dir, "no-such-root"), "does not exist"},
		{"a-file", file, "is not a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := run(t, dir, commandEnv(nil), nil, filepath.Join(binDir, "nfd-fn"), "discover", "--host-root", c.root, "--node-name", "n1")
			if code != 1 || stdout != "" || !strings.Contains(stderr, `host root "`+c.root+`" `+c.want) {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1, no output and %q", code, stdout, stderr, c.want)
			}
		})
	}
}

// TestDiscoverFeaturesDirStaysInsideTheHostRoot is issue 34's §3 security
// point: whichever way features.d is named (the default, --features-dir
// naming the default, or --features-dir naming a symlink to it, whose
// absolute target is a path of the host), a
// symlink in it to an absolute path or through ".." resolves inside the
// host root, never to the machine's file of that name; and a
// --features-dir outside the host root is refused. A secret outside the
// root never reaches stdout or stderr.
func TestDiscoverFeaturesDirStaysInsideTheHostRoot(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	testkit.WriteFiles(t, dir, map[string]string{"secret": "leaked-secret=yes\n"})
	root := filepath.Join(dir, "root")
	features := filepath.Join(root, "etc/kubernetes/node-feature-discovery/features.d")
	testkit.WriteFiles(t, root, map[string]string{
		"etc/kubernetes/node-feature-discovery/features.d/own": "own-feature=ok\n",
		secret: "inside-root=yes\n", // the absolute link's target, read inside the root
	})
	symlink(t, secret, filepath.Join(features, "absolute"))
	symlink(t, "../../../../../secret", filepath.Join(features, "dotdot"))
	symlink(t, "/etc/kubernetes/node-feature-discovery/features.d", filepath.Join(root, "features-link")) // absolute as on the host
	bin := filepath.Join(binDir, "nfd-fn")
	base := []string{"discover", "--host-root", root, "--node-name", "n1", "--arch", "amd64", "--sources", "local"}
	for _, c := range []struct{ name, featuresDir string }{
		{"default", ""},
		{"named-default", features},
		{"symlinked", filepath.Join(root, "features-link")},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := base
			if c.featuresDir != "" {
				args = append(append([]string(nil), base...), "--features-dir", c.featuresDir)
			}
			stdout, stderr, code := run(t, dir, commandEnv(nil), nil, bin, args...)
			if code != 0 || !strings.Contains(stdout, "own-feature") {
				t.Fatalf("exit %d, stdout lacks own-feature:\n%s\n%s", code, stdout, stderr)
			}
			if strings.Contains(stdout+stderr, "leaked-secret") {
				t.Errorf("a file outside the host root reached the output:\n%s\n%s", stdout, stderr)
			}
			if !strings.Contains(stdout, "inside-root") {
				t.Errorf("the absolute link did not resolve inside the host root:\n%s", stdout)
			}
		})
	}
	stdout, stderr, code := run(t, dir, commandEnv(nil), nil, bin, append(append([]string(nil), base...), "--features-dir", filepath.Dir(secret))...)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "is outside the host root") || strings.Contains(stderr, "leaked-secret") {
		t.Errorf("--features-dir outside the root: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// symlink makes link point at target.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
