package discover

import (
	"path"
	"regexp"
	"strings"
)

// parseKernelVersion splits a kernel release into kernel.version's full,
// major, minor and revision.
func parseKernelVersion(raw string) map[string]string {
	full := regexp.MustCompile(`[^-A-Za-z0-9_.]`).ReplaceAllString(raw, "_")
	full = strings.Trim(full, "-_.")
	v := map[string]string{"full": full}
	re := regexp.MustCompile(`^(?P<major>\d+)(\.(?P<minor>\d+))?(\.(?P<revision>\d+))?(-.*)?$`)
	if m := re.FindStringSubmatch(full); m != nil {
		for i, name := range re.SubexpNames() {
			if name != "" {
				v[name] = m[i]
			}
		}
	}
	return v
}

// parseKconfig returns every CONFIG_ option with its value (quotes
// stripped) and the legacy form where "y" and "m" read "true".
func parseKconfig(raw []byte) (real, legacy map[string]string) {
	real, legacy = map[string]string{}, map[string]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "CONFIG_") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		name = strings.TrimPrefix(name, "CONFIG_")
		real[name] = strings.Trim(value, `"`)
		if value == "y" || value == "m" {
			legacy[name] = "true"
		} else {
			legacy[name] = real[name]
		}
	}
	return real, legacy
}

// parseLoadedModules returns the module names of /proc/modules.
func parseLoadedModules(raw string) []string {
	var mods []string
	for _, line := range strings.Split(raw, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			mods = append(mods, f[0])
		}
	}
	return mods
}

// parseBuiltinModules returns the module names of modules.builtin.
func parseBuiltinModules(raw string) []string {
	var mods []string
	for _, line := range strings.Split(raw, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasSuffix(line, ".ko") {
			mods = append(mods, strings.TrimSuffix(path.Base(line), ".ko"))
		}
	}
	return mods
}
