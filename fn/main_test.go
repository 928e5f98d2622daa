package fn

import (
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestMain removes, after the tests, the nfd-fn binary they share
// (testkit.Binary).
func TestMain(m *testing.M) { testkit.Main(m) }
