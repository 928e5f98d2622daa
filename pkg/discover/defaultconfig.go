package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// DefaultWorkerConfigPath is the configuration file nfd-worker reads when
// none is named, below the host root: the default of its -config flag in
// every release v0.16 to v0.19.
const DefaultWorkerConfigPath = "etc/kubernetes/node-feature-discovery/nfd-worker.conf"

// readDefaultWorkerConfig reads nfd-worker's default configuration file below
// the host root, through the root as every host file is. It returns nil
// when the file does not exist: nfd-worker then starts with its defaults.
// A file that exists but cannot be read (a directory, no permission) is an
// error naming it, as nfd-worker refuses to start over it.
func readDefaultWorkerConfig(h host) ([]byte, error) {
	b, err := h.readFile(DefaultWorkerConfigPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("nfd-worker's default configuration cannot be read, and nfd-worker does not start over one it cannot read: %w (fix it, or name another with --config)", err)
	case len(b) == 0:
		return nil, nil // an empty file is nfd-worker's defaults, as none
	}
	return b, nil
}

// defaultConfigError is the error about nfd-worker's default configuration
// file when it is not one nfd-fn can read, naming the file.
func defaultConfigError(h host, err error) error {
	return fmt.Errorf("nfd-worker's default configuration %s: %w (fix it, or name another with --config)",
		filepath.Join(h.root, filepath.FromSlash(DefaultWorkerConfigPath)), err)
}
