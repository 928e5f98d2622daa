// Package discover inspects a host root filesystem and returns the
// NodeFeature object nfd-worker v0.19 would publish for it.
//
// Each feature source (cpu, kernel, memory, network, pci, storage, system,
// usb, local) reads its files through a host value rooted at
// Options.HostRoot, and hands what it read to parse functions that take
// bytes or strings, so the parsing is table-tested without a host. Sources
// run concurrently; a source that fails or is unreadable only loses its own
// features (exactly the ones nfd-worker would lose) and adds a Warning.
//
// The labels nfd-worker writes to spec.labels are reproduced too: the
// built-in per-source labels (prefixed "feature.node.kubernetes.io/<source>-"),
// the custom rules of the worker configuration (sources.custom, custom.d and
// the two static RDMA rules) and the features.d labels, in nfd-worker's
// priority order.
//
// Sysfs and procfs are read directly rather than through
// github.com/jaypipes/ghw: nfd-worker's names and corner cases (a CPU without
// topology files empties cpu.topology, /sys/bus/node/devices is counted as it
// is, raw PCI class codes are cut to four digits, a missing attribute file is
// skipped rather than defaulted) do not survive ghw's models, ghw writes
// warnings to stderr by default, and a HostRoot with absolute symlinks needs
// the root-confined path resolution implemented in host.go.
package discover
