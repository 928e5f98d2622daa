package discover

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// discoverKernel is the kernel source of nfd-worker v0.19
// (source/kernel/*.go). Everything is read under the host
// root: proc/sys/kernel/osrelease (kernel.version), the kernel config from
// proc/config.gz or the usual /usr/src, /usr/lib, /lib/modules and /boot
// locations (kernel.config), proc/modules (kernel.loadedmodule),
// lib/modules/<release>/modules.builtin (kernel.enabledmodule),
// sys/fs/selinux (kernel.selinux) and, in v0.19,
// sys/devices/virtual/misc/kvm (kernel.kvm).
func discoverKernel(e *env, c *collector) {
	h := e.host
	release, relErr := h.readTrim("proc/sys/kernel/osrelease")
	if relErr != nil {
		c.warn("version: %v", relErr)
	} else {
		c.attrs("version", parseKernelVersion(release))
	}
	if raw, err := readKconfig(h, e.cfg.Sources.Kernel.KconfigFile, release, relErr == nil, e.rel); err != nil {
		c.warn("config: %v", err)
	} else {
		real, legacy := parseKconfig(raw)
		c.attrs("config", real)
		e.legacyKconfig.set(legacy)
	}
	discoverModules(h, c, release, relErr)
	if on, err := readSelinux(h); err != nil {
		c.warn("selinux: %v", err)
	} else {
		c.attrs("selinux", map[string]string{"enabled": strconv.FormatBool(on)})
	}
	if !e.rel.kvm {
		return
	}
	if on, err := h.exists("sys/devices/virtual/misc/kvm"); err != nil {
		c.warn("kvm: %v", err)
	} else {
		c.attrs("kvm", map[string]string{"enabled": strconv.FormatBool(on)})
	}
}

// discoverModules sets kernel.loadedmodule and kernel.enabledmodule.
func discoverModules(h host, c *collector, release string, relErr error) {
	var enabled []string
	if raw, err := h.readFile("proc/modules"); err != nil {
		c.warn("loadedmodule: %v", err)
	} else {
		loaded := parseLoadedModules(string(raw))
		enabled = append(enabled, loaded...)
		c.flags("loadedmodule", loaded)
	}
	if relErr != nil {
		c.warn("enabledmodule: %v", relErr)
		return
	}
	raw, err := h.readFile("lib/modules/" + release + "/modules.builtin")
	if err != nil {
		c.warn("enabledmodule: %v", err)
		return
	}
	c.flags("enabledmodule", append(enabled, parseBuiltinModules(string(raw))...))
}

// kconfigPaths lists where the kernel config is looked for, in order.
func kconfigPaths(configFile, release string, haveRelease bool) []string {
	paths := []string{strings.TrimPrefix(configFile, "/")}
	if !haveRelease {
		return append(paths, "proc/config.gz", "usr/src/linux/.config")
	}
	return append(paths,
		"proc/config.gz",
		"usr/src/linux-"+release+"/.config",
		"usr/src/linux-rt-"+release+"/.config",
		"usr/src/linux/.config",
		"usr/lib/modules/"+release+"/config",
		"usr/lib/ostree-boot/config-"+release,
		"usr/lib/kernel/config-"+release,
		"usr/src/linux-headers-"+release+"/.config",
		"lib/modules/"+release+"/build/.config",
		"usr/src/linux-rt-headers-"+release+"/.config",
		"boot/config-"+release,
	)
}

// readKconfig returns the first readable kernel config.
func readKconfig(h host, configFile, kernelRelease string, haveRelease bool, rel release) ([]byte, error) {
	paths := slices.DeleteFunc(kconfigPaths(configFile, kernelRelease, haveRelease), func(p string) bool { return !rel.keepKconfigPath(p) })
	for _, p := range paths {
		if p == "" {
			continue
		}
		raw, err := h.readFile(p)
		if err != nil {
			continue
		}
		if !strings.HasSuffix(p, ".gz") {
			return raw, nil
		}
		if raw, err = gunzip(raw); err == nil {
			return raw, nil
		}
	}
	return nil, fmt.Errorf("failed to read kernel config from %v", paths[1:])
}

// gunzip decompresses gzip data.
func gunzip(b []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("decompressing: %w", err)
	}
	defer r.Close() //nolint:errcheck // read-only
	return io.ReadAll(r)
}

// readSelinux reports whether SELinux is enforcing, as nfd-worker v0.19
// (source/kernel/selinux.go) does: an error when sys/fs cannot be
// stat'ed, false when sys/fs/selinux/enforce does not exist (with or
// without sys/fs/selinux), else whether enforce starts with "1". An empty
// enforce file, on which nfd-worker would crash, reads false.
func readSelinux(h host) (bool, error) {
	if _, err := h.stat("sys/fs"); err != nil {
		return false, err
	}
	status, err := h.readFile("sys/fs/selinux/enforce")
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return len(status) > 0 && status[0] == '1', nil
}
