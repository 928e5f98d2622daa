// Package nova turns what nfd-fn renders for a fleet into an OpenStack Nova
// provider config file (nova-specs "provider-config-file", read by
// nova-compute from [compute]provider_config_location), and validates such
// files the way nova-compute and placement would.
//
// The package is pure: it builds, encodes, parses and compares documents in
// memory, and reconciles the file nfd-fn writes with the operator's own
// (Reconcile). It reports with pkg/diag diagnostics whose Field is a path
// inside a provider config file; finding the files in a package and placing
// the diagnostics on its objects are left to its caller.
//
// Layout of the written file. The spec's pseudo-schema shows
// inventories.additional as a mapping keyed by resource class, but the
// schema nova-compute validates against (SCHEMA_V1 in
// nova/compute/provider_config.py, shown in Nova's admin guide) requires a
// list of mappings. Build and Marshal write the list form, one resource
// class per entry, so that nova-compute accepts the file; Parse reports the
// mapping form as an error for the same reason.
package nova
