package modes

import (
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// ReleaseFlagUsage is the help of --nfd-version: the releases nfd-fn
// renders as and the default, from pkg/release's table.
func ReleaseFlagUsage() string {
	return "render as this NFD release: " + strings.Join(release.Supported(), ", ") +
		" (docs/releases.md; default: the release the input shows, else " + release.Latest.String() + ")"
}
