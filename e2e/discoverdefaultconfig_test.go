package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// defaultWorkerConfig is nfd-worker's default configuration file (its
// -config flag's default in every release), below the host root.
const defaultWorkerConfig = "etc/kubernetes/node-feature-discovery/nfd-worker.conf"

// insideRule is a worker configuration whose custom rule labels a node
// whose kernel version has a major number with label.
func insideRule(label string) string {
	return "sources:\n  custom:\n  - name: " + label + "\n    labels: {" + label + ": \"yes\"}\n" +
		"    matchFeatures:\n    - feature: kernel.version\n      matchExpressions: {major: {op: Exists}}\n"
}

// TestDiscoverReadsNfdWorkersDefaultConfigUnderTheHostRoot is issue 34's
// §3 default location: with no --config, discover reads what nfd-worker
// reads, <host-root>/etc/kubernetes/node-feature-discovery/nfd-worker.conf
// (a kubelet ConfigMap mount's ..data links followed, as on the node),
// and falls back to nfd-worker's defaults only when that file is absent.
// The file is read through the host root: an absolute symlink there
// resolves inside it, never to this machine's file. A default file that
// cannot be read, or does not parse, is an error naming it (exit 1, no
// NodeFeature).
func TestDiscoverReadsNfdWorkersDefaultConfigUnderTheHostRoot(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	fixtures, err := filepath.Abs("../testdata/discover")
	if err != nil {
		t.Fatal(err)
	}
	discover := func(t *testing.T, root string, more ...string) (string, string, int) {
		t.Helper()
		args := append([]string{"discover", "--host-root", root, "--node-name", "n1", "--arch", "amd64"}, more...)
		return run(t, t.TempDir(), commandEnv(nil), nil, bin, args...)
	}

	t.Run("kubelet-configmap-mount", func(t *testing.T) {
		root := filepath.Join(fixtures, "configmap-host")
		stdout, stderr, code := discover(t, root, "--sources", "system,custom")
		if code != 0 || !strings.Contains(stdout, "from-worker-config") {
			t.Fatalf("exit %d; the default file's custom rule did not run:\n%s\n%s", code, stdout, stderr)
		}
		named, _, _ := discover(t, root, "--sources", "system,custom", "--config", filepath.Join(root, defaultWorkerConfig))
		if stdout != named {
			t.Errorf("nothing named differs from --config naming the default file:\n%s\nvs\n%s", stdout, named)
		}
	})

	t.Run("absent", func(t *testing.T) {
		stdout, stderr, code := discover(t, filepath.Join(fixtures, "bare-host"), "--sources", "system,custom")
		if code != 0 || strings.Contains(stdout, "from-worker-config") || !strings.Contains(stdout, "kind: NodeFeature") {
			t.Errorf("exit %d; want nfd-worker's defaults:\n%s\n%s", code, stdout, stderr)
		}
	})

	t.Run("symlink-confined", func(t *testing.T) {
		dir := t.TempDir()
		outside := filepath.Join(dir, "outside.conf")
		root := filepath.Join(dir, "root")
		testkit.WriteFiles(t, dir, map[string]string{"outside.conf": insideRule("leaked")})
		testkit.WriteFiles(t, root, map[string]string{
			"proc/sys/kernel/osrelease": "6.8.0\n",
			outside:                     insideRule("inside-root"), // the absolute link's target, inside the root
		})
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(defaultWorkerConfig)), 0o755); err != nil {
			t.Fatal(err)
		}
		symlink(t, outside, filepath.Join(root, defaultWorkerConfig))
		stdout, stderr, code := discover(t, root, "--sources", "kernel,custom")
		if code != 0 || !strings.Contains(stdout, "inside-root") {
			t.Fatalf("exit %d; the default file did not resolve inside the host root:\n%s\n%s", code, stdout, stderr)
		}
		if strings.Contains(stdout+stderr, "leaked") {
			t.Errorf("a file outside the host root was read:\n%s\n%s", stdout, stderr)
		}
	})

	for _, c := range []struct {
		name string
		make func(t *testing.T, path string)
		want string
	}{
		{"invalid", func(t *testing.T, path string) { write(t, path, "core: [\n") }, "nfd-worker's default configuration %s: line 1"},
		{"not-a-configuration", func(t *testing.T, path string) { write(t, path, "labelWhiteList: x\n") }, "nfd-worker's default configuration %s: not an nfd-worker configuration"},
		{"unreadable", func(t *testing.T, path string) {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "nfd-worker's default configuration cannot be read, and nfd-worker does not start over one it cannot read: reading %q: not a regular file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, defaultWorkerConfig)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			c.make(t, path)
			stdout, stderr, code := discover(t, root)
			want := strings.ReplaceAll(c.want, "%s", path)
			want = strings.ReplaceAll(want, "%q", `"`+path+`"`)
			if code != 1 || stdout != "" || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1, no NodeFeature and %q", code, stdout, stderr, want)
			}
		})
	}
}

// write writes text to path.
func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
