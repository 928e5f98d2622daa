// Package objects is nfd-fn's one object model: a Set of the NFD objects
// (NodeFeature, NodeFeatureRule, NodeFeatureGroup) and Nodes a run reads,
// each with its Origin (file, document index, ResourceList item, YAML node
// for positions). Sets are built the same way whatever the input was:
// ResourceList items, however they were read (internal/inputs reads
// files, directories and ResourceLists for every mode). Decoding is
// strict: a misspelt field is a diagnostic with its field path and
// position, and the object is kept but marked Rejected, as the API server
// would refuse it.
//
// Decode reads a yaml.v3 tree. For the large inputs of a fleet,
// internal/fastread reads an item straight from its text instead and
// produces the same Decoded values; whatever it does not read exactly as
// Decode does is left to Decode.
//
// The package does no logging; reading files is confined to CollectFiles
// and ReadFile.
package objects
