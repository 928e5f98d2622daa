// Package discover inspects a host root filesystem and returns the
// NodeFeature object nfd-worker v0.19.0 publishes for it.
//
// Each source mirrors the nfd-worker v0.19.0 files named in its doc
// comment: cpu (source/cpu/cpu.go and the *_amd64.go / *_arm64.go files),
// kernel (source/kernel/*.go), memory (source/memory/memory.go), network
// (source/network/network.go), pci (source/pci/utils.go, pci.go), storage
// (source/storage/storage.go), system (source/system/system.go), usb
// (source/usb/utils.go, usb.go), local (source/local/local.go) and custom
// (source/custom/*.go, with the rules run by pkg/engine), plus the label
// making, configuration and noPublishFeatures of pkg/nfd-worker. The
// testdata/discover trees and the NodeFeature nfd-worker v0.19.0 itself
// published for each keep them equal (reference_test.go).
//
// Every read goes through one reader, host (host.go): paths are relative
// to Options.HostRoot, which must be a directory, and opened through an
// os.Root of it; every symlink resolves as if the root were "/", only
// regular files are opened (never a FIFO or a device), no file is read
// past a size cap, and reads fail once the phase's deadline passed.
// Nothing is written and no hook is executed. features.d is read below the
// root whichever option named it (Options.FeaturesDir must lie inside
// HostRoot). With Options.Confine (KRM mode), the worker configuration's
// path stays inside the root too and warnings never quote what a file
// holds. Each source hands what it read to parse
// functions that take bytes or strings, so the parsing is table-tested
// without a host. Feature sources run concurrently, then label sources,
// each phase under Options.SourceTimeout; a source that fails, panics or
// outlives the deadline only loses its own features or labels (exactly
// the ones nfd-worker would lose, where it has such a failure) and adds a
// warning diagnostic (pkg/diag; its Field names the source). A key or value the YAML output cannot carry (a DEL, U+0085,
// U+FFFE...) loses its line or element with a warning naming file and
// line; invalid UTF-8 becomes U+FFFD as in nfd-worker's JSON.
//
// The labels nfd-worker writes to spec.labels are reproduced too: the
// built-in per-source labels (prefixed "feature.node.kubernetes.io/<source>-"),
// the custom rules of the worker configuration (sources.custom, custom.d and
// the two static RDMA rules) and the features.d labels, in nfd-worker's
// priority order. Every v0.19 worker configuration setting that shapes the
// object is honoured; settings nfd-worker silently ignores (misspelt keys,
// the hooks of older local sources, a term written in a short form the
// worker API lacks) are decoded the same way and reported as warnings.
//
// Options.Arch selects the nfd-worker being reproduced. On amd64 the
// CPUID data comes from a CPUIDProvider (klauspost/cpuid/v2 on the running
// machine by default). On arm64 nothing comes from the running machine:
// the hwcaps are read from proc/self/auxv or proc/cpuinfo and MIDR_EL1
// from sysfs or proc/cpuinfo under the host root, so an arm64 tree is
// discovered identically anywhere.
//
// # Why github.com/jaypipes/ghw is not used
//
// ghw v0.26.0 was tried on the fixture trees with WithChroot,
// WithDisableTools and warnings routed away; v0.27.0 has the same block,
// topology, pci, usb and net models and was not re-run on the trees, so the
// findings below are v0.26.0's. It can be silenced (WithDisableWarnings or WithLogger; the old
// WithNullAlerter no longer silences the WARN lines it prints to stderr),
// and it does take a chroot, but no ghw model reproduces nfd-worker's
// features:
//
//   - block.New drops "loop*" disks whose size is 0 (nfd-worker lists every
//     /sys/block entry) and exposes none of the dax, nr_zones and zoned
//     queue attributes of storage.block; rotational only survives folded
//     into DriveType.
//
//   - topology.New counts sys/devices/system/node/node* and stops at the
//     first node whose CPUs, caches, distances or memory it cannot read;
//     without that directory it returns zero nodes with Architecture NUMA.
//     nfd-worker's memory.numa counts the entries of sys/bus/node/devices
//     and drops the feature when that directory is unreadable.
//
//   - pci.New needs a pci.ids database in the root ("pcidb: No pci-ids DB
//     files found" on the fixtures and on this machine) and decodes IDs
//     from each device's modalias; nfd-worker reads the class, vendor,
//     device and subsystem files, cuts the class to four digits and adds
//     sriov_totalvfs, iommu_group/type and iommu/intel-iommu/version, none
//     of which ghw exposes.
//
//   - usb.New follows /sys/bus/usb/devices symlinks and reads uevent
//     (vendor and product IDs without zero padding), with no device class,
//     no interface classes and no serial; nfd-worker's usb.device needs all
//     three.
//
//   - net.New classifies NICs as virtual from the link target and skips lo;
//     nfd-worker's network.device/virtual split is "has a device entry".
//
//   - ghw reads with os.ReadFile and follows symlinks on the real file
//     system; discovery must resolve them inside the host root, open
//     regular files only and cap sizes, which ghw offers no hook for.
//
// So every source reads sysfs and procfs directly, through host.
package discover
