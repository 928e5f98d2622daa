package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDiscoverFoldsDMIWarningsIntoOneLine is issue 26's point 9 (discover
// part): on a host root without /sys/devices/virtual/dmi/id, the DMI
// entries the system source cannot read are one warning naming them all,
// not one line each.
func TestDiscoverFoldsDMIWarningsIntoOneLine(t *testing.T) {
	root := t.TempDir()
	_, stderr, code := run(t, root, commandEnv(nil), nil, filepath.Join(binDir, "nfd-fn"), "discover", "--host-root", root, "--node-name", "bare", "--arch", "amd64")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var dmi []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "DMI entr") {
			dmi = append(dmi, l)
		}
	}
	if len(dmi) != 1 || !strings.Contains(dmi[0], "warning: system: failed to get ") || !strings.Contains(dmi[0], "DMI entries (bios_date, bios_vendor,") ||
		!strings.Contains(dmi[0], `/sys/devices/virtual/dmi/id/*`) {
		t.Errorf("want one folded DMI warning, got %d lines:\n%s", len(dmi), strings.Join(dmi, "\n"))
	}
}
