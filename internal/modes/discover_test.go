package modes

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
)

// TestDiscoverTellsTheNodeNameFallbackAsANote: the node name follows
// nfd-worker (the given name, else NODE_NAME, else the host name), and
// only the host-name fallback is told: a note, first among the findings,
// which the KRM mode gives as a warning result. The system source's DMI
// misses on a host without DMI come as one warning.
func TestDiscoverTellsTheNodeNameFallbackAsANote(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
	tests := []struct {
		name, flag, env, want string
		note                  bool
	}{
		{name: "given", flag: "given-node", env: "env-node", want: "given-node"},
		{name: "from-node-name", env: "env-node", want: "env-node"},
		{name: "from-the-host-name", want: host, note: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("NODE_NAME", tt.env)
			root := t.TempDir()
			nf, found, err := Discover(context.Background(), discover.Options{HostRoot: root, FeaturesDir: root, NodeName: tt.flag, Sources: []string{"system"}})
			if err != nil {
				t.Fatal(err)
			}
			if nf.Metadata.Name != tt.want {
				t.Errorf("node %q, want %q", nf.Metadata.Name, tt.want)
			}
			noted := len(found) > 0 && found[0].Check == NodeNameFromHost
			if noted != tt.note || noted && (found[0].Severity != diag.Info || !strings.Contains(found[0].Message, `using the host name "`+host+`"`)) {
				t.Errorf("findings %v; want a note on the host name: %v", found, tt.note)
			}
			var dmi []string
			for _, d := range found {
				if strings.Contains(d.Message, "DMI entr") {
					dmi = append(dmi, d.Describe())
				}
			}
			if len(dmi) != 1 || !strings.HasPrefix(dmi[0], "system: failed to get 16 DMI entries (bios_date, ") {
				t.Errorf("DMI misses told as %q, want one warning for all 16", dmi)
			}
			if !tt.note {
				return
			}
			_, krm, err := HostDiscover(context.Background(), config.DiscoverOptions{HostRoot: root, FeaturesDir: ".", Sources: []string{"system"}})
			if err != nil || len(krm) == 0 || krm[0].Check != NodeNameFromHost || krm[0].Severity != diag.Warning {
				t.Errorf("KRM mode: %v, %v; want the host-name fallback first, as a warning", krm, err)
			}
		})
	}
}
