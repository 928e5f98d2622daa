package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// workerFeatures holds rules and a group reading features a worker
// configuration can stop publishing, and three configurations.
const workerFeatures = "testdata/worker-features/"

// TestValidateWorkerConfigWarnsAboutRulesReadingAFeatureItWithholds is
// issue 37's "a rule selecting a label the worker configuration no longer
// produces": rules match features, never the worker's labels, so what a
// worker configuration takes from a rule is a feature. validate
// --worker-config warns (NFD313) about every rule and group term reading
// a feature the snapshot publishes and the configuration withholds (its
// source left out of core.featureSources; core.noPublishFeatures on
// v0.19), naming the rule, its file and line, the feature, the setting
// and the nodes; the KRM driver gives the same findings; a configuration
// that withholds nothing gives none.
func TestValidateWorkerConfigWarnsAboutRulesReadingAFeatureItWithholds(t *testing.T) {
	bin := buildListTestBinary(t)
	snapshot := upgradeExample + "/snapshot.yaml"
	for _, tc := range []struct {
		config string
		want   []string
	}{
		{"no-pci-source.conf", []string{
			`testdata/worker-features/rules.yaml:14:16: warning: NodeFeatureRule/gpu spec.rules[0].matchFeatures[0].feature: rule "nvidia gpu" reads feature pci.device, which nfd-worker no longer publishes with the worker configuration testdata/worker-features/no-pci-source.conf (core.featureSources [all -pci] leaves source pci out; gone from 3 nodes (cpu-03, dgx-a100-02, dgx-h100-01)): the term no longer matches there [NFD313]`,
			`testdata/worker-features/rules.yaml:39:16: warning: NodeFeatureGroup/gpu-nodes spec.featureGroupRules[0].matchFeatures[0].feature: group rule "nvidia" reads feature pci.device, which nfd-worker no longer publishes with the worker configuration testdata/worker-features/no-pci-source.conf (core.featureSources [all -pci] leaves source pci out; gone from 3 nodes (cpu-03, dgx-a100-02, dgx-h100-01)): the term no longer matches there [NFD313]`,
		}},
		{"no-publish-modules.conf", []string{
			`testdata/worker-features/rules.yaml:26:18: warning: NodeFeatureRule/gpu spec.rules[1].matchAny[1].matchFeatures[0].feature: rule "gpu or rdma" reads feature kernel.loadedmodule, which nfd-worker no longer publishes with the worker configuration testdata/worker-features/no-publish-modules.conf (core.noPublishFeatures "kernel.loadedmodule" names it; gone from 3 nodes (cpu-03, dgx-a100-02, dgx-h100-01)): the term no longer matches there [NFD313]`,
		}},
		{"all-sources.conf", nil},
	} {
		t.Run(tc.config, func(t *testing.T) {
			args := []string{"validate", "--nfd-version", "v0.19.0", "--worker-config", workerFeatures + tc.config}
			text := runBinary(t, bin, nil, append(args, snapshot, workerFeatures+"rules.yaml")...)
			var got []string
			for _, line := range strings.Split(text.stdout, "\n") {
				if strings.HasSuffix(line, "[NFD313]") {
					got = append(got, line)
				}
			}
			if text.code != 0 || !slices.Equal(got, tc.want) {
				t.Errorf("exit %d; NFD313 findings:\n%s\nwant:\n%s\nstderr:\n%s", text.code, strings.Join(got, "\n"), strings.Join(tc.want, "\n"), text.stderr)
			}
			files := runBinary(t, bin, nil, append(append(args, "-o", "json"), snapshot, workerFeatures+"rules.yaml")...)
			var fromFiles testkit.List
			if err := json.Unmarshal([]byte(files.stdout), &fromFiles.Results); err != nil {
				t.Fatalf("-o json: %v\n%s", err, files.stdout)
			}
			krm := runBinary(t, bin, exampleResourceList(t, snapshot, workerFeatures+"rules.yaml"), args...)
			if g, w := featuresGone(testkit.Read(t, []byte(krm.stdout))), featuresGone(fromFiles); len(w) != len(tc.want) || !slices.Equal(g, w) {
				t.Errorf("the ResourceList's NFD313 findings differ from the files':\ngot:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
			}
		})
	}
}

// featuresGone are the NFD313 findings of l, each as its object, field,
// file and message, sorted.
func featuresGone(l testkit.List) []string {
	var out []string
	for _, r := range l.WithCheck("worker-feature-gone") {
		ref := r.ResourceRef
		out = append(out, fmt.Sprintf("%s/%s %s %s: %s", ref["kind"], ref["name"], r.Field.Path, r.File.Path, r.Message))
	}
	slices.Sort(out)
	return out
}
