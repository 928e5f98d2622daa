package cli

import (
	"io"
	"slices"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// runSettings reads the settings of validate, explain and plan: from the
// --config file (configPath), or from the functionConfig of a ResourceList
// among the files under paths ("-" is stdin), never from both: nfd-fn
// would have to pick one silently (inputs.ConfigFor). nfdVersion
// (--nfd-version) overrides the settings' own release.
func runSettings(cmd, configPath, nfdVersion string, paths []string, stdin *inputs.Stdin, stderr io.Writer) (config.Settings, int) {
	list, from, err := inputs.ListConfig(paths, stdin)
	if err != nil {
		complain(stderr, "nfd-fn %s: %v", cmd, err)
		return config.Settings{}, 2
	}
	if list == nil {
		return settingsFrom(cmd, configPath, nfdVersion, stderr)
	}
	if configPath != "" {
		given, err := readConfig(configPath)
		if err == nil {
			_, err = inputs.ConfigFor(given, list, from)
		}
		if err != nil {
			complain(stderr, "nfd-fn %s: %v", cmd, err)
			return config.Settings{}, 2
		}
	}
	s, code := settingsOf(from, list, stderr)
	if code != 0 {
		return s, code
	}
	return s, useRelease(cmd, &s, nfdVersion, stderr)
}

// readWorkloads reads the workloads under paths (plan --workloads), "-"
// being stdin (helm template ... | nfd-fn plan --workloads - PATH).
func readWorkloads(paths []string, stdin *inputs.Stdin) ([]*workload.Workload, diag.List, error) {
	if !slices.Contains(paths, inputs.StdinPath) {
		return workload.Read(paths)
	}
	var ws []*workload.Workload
	var ds diag.List
	for _, p := range paths {
		var more []*workload.Workload
		var found diag.List
		if p == inputs.StdinPath {
			data, err := stdin.Bytes()
			if err != nil {
				return nil, nil, err
			}
			more, found = workload.ReadBytes(data, "stdin")
		} else {
			var err error
			if more, found, err = workload.Read([]string{p}); err != nil {
				return nil, nil, err
			}
		}
		ws, ds = append(ws, more...), append(ds, found...)
	}
	return ws, ds, nil
}

// withoutStdin is paths without "-" (stdin), for what walks the paths
// on disk.
func withoutStdin(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p != inputs.StdinPath {
			out = append(out, p)
		}
	}
	return out
}
