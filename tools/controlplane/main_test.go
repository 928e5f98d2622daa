package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	// nfd-fn's command, so that this module's go.sum holds what
	// testkit.Binary's build of nfd-fn from here needs.
	_ "github.com/nfd-fn/nfd-fn/cli"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// repoRoot is the project's checkout: its testdata and the CRDs
// pkg/admission embeds.
const repoRoot = "../.."

// planeLifetime bounds how long the servers of one test run may live.
const planeLifetime = 45 * time.Minute

func TestMain(m *testing.M) { testkit.Main(m) }

// TestOnARealAPIServer starts one etcd and kube-apiserver (built, or
// taken from the cache, by ensure) and runs every real-server check on
// it in turn: they share the server's CRDs, so they do not run in
// parallel.
func TestOnARealAPIServer(t *testing.T) {
	var log bytes.Buffer
	bin, err := ensure(&log)
	if err != nil {
		t.Fatalf("building the control plane: %v\n%s", err, tail(log.Bytes()))
	}
	p, err := start(bin, planeLifetime)
	if err != nil {
		t.Fatalf("starting the control plane: %v", err)
	}
	t.Cleanup(p.stop)
	t.Run("admission per release agrees with nfd-fn", func(t *testing.T) { testAdmission(t, p) })
	t.Run("field validation of a misspelt and a newer field", func(t *testing.T) { testFieldValidation(t, p) })
	t.Run("a value of the wrong type refused in the API server's words", func(t *testing.T) { testTypeRefusalWording(t, p) })
	t.Run("apply output applied server-side", func(t *testing.T) { testApply(t, p) })
	t.Run("takeover from nfd-master", func(t *testing.T) { testTakeover(t, p) })
	t.Run("takeover migration as documented", func(t *testing.T) { testMigration(t, p) })
}

// crdStream is the CRD file pkg/admission embeds for a release tag.
func crdStream(t *testing.T, tag string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "pkg/admission/crds", "nfd-api-crds-"+tag+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}

// releaseTags are the CRD tags of the release lines, oldest first.
func releaseTags() []string {
	var out []string
	for _, l := range release.Lines() {
		out = append(out, l.CRDs.String())
	}
	return out
}
