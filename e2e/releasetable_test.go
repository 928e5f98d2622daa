package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// TestReleaseKnowledgeComesFromOneTable is issue 35 §2 seen from the
// binary: what render and discover say about releases (the releases
// --nfd-version takes, the default, the error for an unknown one) is
// pkg/release's table, not a copy of it.
func TestReleaseKnowledgeComesFromOneTable(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	supported := strings.Join(release.Supported(), ", ")
	help := func(cmd string) string {
		stdout, stderr, _ := run(t, ".", commandEnv(nil), nil, bin, cmd, "--help")
		return stdout + stderr
	}
	wantAll(t, help("render"), "render as this NFD release: "+supported, "else "+release.Latest.String()+")")
	wantAll(t, help("discover"), "Prints the NodeFeature nfd-worker "+release.LatestWorker.String(),
		"reproduce this nfd-worker release: "+strings.Join(discover.SupportedNFDVersions(), ", ")+` (default "`+release.LatestWorker.String()+`")`)
	next := release.Version{Minor: release.Latest.Minor + 1}.String()
	_, stderr, code := run(t, ".", commandEnv(nil), []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n"), bin, "render", "--nfd-version", next, "-")
	if code != 1 {
		t.Errorf("--nfd-version %s: exit %d, want 1", next, code)
	}
	wantAll(t, stderr, `unknown NFD release "`+next+`": nfd-fn renders as `+supported)
}
