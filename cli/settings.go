package cli

import (
	"errors"
	"io"

	"github.com/nfd-fn/nfd-fn/internal/modes"
)

// loadSettings loads the settings of cmd's files (modes.Files.LoadSettings)
// and tells what it found on stderr; it returns the exit code, 0 when the
// run goes on.
func loadSettings(cmd string, files *modes.Files, flags modes.SettingsFlags, stderr io.Writer) int {
	found, err := files.LoadSettings(flags)
	for _, line := range modes.SettingsLines(cmd, found, err) {
		complain(stderr, "%s", line)
	}
	var refused *modes.SettingsError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &refused) && !refused.Usage:
		return 1
	default:
		return 2
	}
}
