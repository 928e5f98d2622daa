package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestFeatureGatesAsNFDMasterParsesThem is issue 34's "feature gates as
// nfd-master parses them": AllAlpha, AllBeta and any other gate nfd-master
// does not know, and a locked gate set against its default, are errors
// naming the gate and the known gates (nfd-master refuses to start on
// them); a known gate is taken.
func TestFeatureGatesAsNFDMasterParsesThem(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	list := func(gates string) []byte {
		return []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n" +
			"  metadata: {name: nfd-fn-config}\n  data:\n    featureGates: \"" + gates + "\"\nitems:\n" + testkit.Item(releaseNodeFeature, "node-1.yaml"))
	}
	const known = "it knows DisableAutoPrefix, NodeFeatureAPI, NodeFeatureGroupAPI"
	tests := []struct {
		gates string
		code  int
		want  string
	}{
		{"AllAlpha=true", 1, `unrecognized feature gate "AllAlpha": nfd-master refuses to start on a gate it does not know, AllAlpha and AllBeta included; ` + known},
		{"AllBeta=false,DisableAutoPrefix=true", 1, `unrecognized feature gate "AllBeta"`},
		{"DisableAutoPrefx=true", 1, `unrecognized feature gate "DisableAutoPrefx" (did you mean "DisableAutoPrefix"?)`},
		{"NodeFeatureAPI=false", 1, "cannot set feature gate NodeFeatureAPI to false, it is locked to true: nfd-master refuses to start"},
		{"DisableAutoPrefix=true,NodeFeatureGroupAPI=false", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.gates, func(t *testing.T) {
			out, stderr, code := run(t, ".", commandEnv(nil), list(tt.gates), bin)
			errs := testkit.Read(t, []byte(out)).WithCheck("feature-gate")
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, stderr)
			}
			if tt.want == "" {
				if len(errs) != 0 {
					t.Errorf("results %+v, want none", errs)
				}
				return
			}
			if len(errs) != 1 || errs[0].Severity != "error" || !strings.Contains(errs[0].Message, tt.want) || errs[0].ResourceRef["name"] != "nfd-fn-config" {
				t.Errorf("results %+v, want one error on the functionConfig containing %q", errs, tt.want)
			}
		})
	}
}
