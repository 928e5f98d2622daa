package discover

import (
	"fmt"
	"slices"
	"strings"
)

// withheldSources are the feature sources the configuration leaves out of
// core.featureSources, each as the pattern of the features it would have
// published ("pci.*"): nfd-worker never runs them, so their features are
// not in its NodeFeature and their label sources, reading no features,
// label nothing.
func withheldSources(enabled []string) []string {
	var out []string
	for _, n := range SourceNames() {
		if builtinKinds[n]&featureKind != 0 && !slices.Contains(enabled, n) {
			out = append(out, n+".*")
		}
	}
	return out
}

// Withholds reports whether nfd-worker, with the configuration, leaves
// feature ("pci.device") out of the NodeFeature it publishes, and why:
// its source is left out of core.featureSources, or core.noPublishFeatures
// names it. A rule or group reading it then loses the nodes that matched
// on it.
func (l *Labeler) Withholds(feature string) (string, bool) {
	feature = strings.ToLower(feature)
	src, _, _ := strings.Cut(feature, ".")
	if slices.Contains(l.withheld, src+".*") {
		return fmt.Sprintf("core.featureSources %s leaves source %s out", "["+strings.Join(l.e.cfg.Core.FeatureSources, " ")+"]", src), true
	}
	for _, p := range l.e.cfg.Core.NoPublishFeatures {
		if prefix, ok := strings.CutSuffix(p, "*"); (ok && strings.HasPrefix(feature, prefix)) || (!ok && feature == p) {
			return fmt.Sprintf("core.noPublishFeatures %q names it", p), true
		}
	}
	return "", false
}

// labelsFrom reports whether label source n can label anything: a source
// that is also a feature source labels only from the features it
// discovered, none when core.featureSources leaves it out.
func (l *Labeler) labelsFrom(n string) bool {
	return !slices.Contains(l.withheld, n+".*")
}
