package fastread

import (
	"sort"
	"strings"
	"sync"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// FeatureNames shares the names-only features (DecodeLean) of the
// NodeFeatures of one input: the nodes of a fleet mostly carry the same
// feature names, so one copy of each distinct set serves them all and
// holding a NodeFeature costs about the same whatever the fleet's size.
// The shared maps must only be read. A FeatureNames is safe for
// concurrent use; its zero value is ready.
type FeatureNames struct {
	mu   sync.Mutex
	sets map[string]api.Features
}

// share returns f, names-only, or the copy already held when an earlier
// NodeFeature had the same names.
func (fn *FeatureNames) share(f *api.Features) api.Features {
	key := namesKey(f)
	fn.mu.Lock()
	defer fn.mu.Unlock()
	if got, ok := fn.sets[key]; ok {
		return got
	}
	if fn.sets == nil {
		fn.sets = map[string]api.Features{}
	}
	fn.sets[key] = *f
	return *f
}

// namesKey spells out f's feature names, sorted, one kind after another.
func namesKey(f *api.Features) string {
	var b strings.Builder
	for _, names := range [][]string{keysOf(f.Flags), keysOf(f.Attributes), keysOf(f.Instances)} {
		sort.Strings(names)
		for _, n := range names {
			b.WriteString(n)
			b.WriteByte(0)
		}
		b.WriteByte(1)
	}
	return b.String()
}

func keysOf[T any](m map[string]T) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
