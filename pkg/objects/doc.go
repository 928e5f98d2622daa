// Package objects is nfd-fn's one object model: a Set of the NFD objects
// (NodeFeature, NodeFeatureRule, NodeFeatureGroup) and Nodes a run reads,
// each with its Origin (file, document index, ResourceList item, YAML node
// for positions). Sets are built the same way whatever the input was:
// ResourceList items (fn/), files and directories (ReadPaths), or bytes
// (ReadBytes). Decoding is strict: a misspelt field is a diagnostic with
// its field path and position, and the object is kept but marked Rejected,
// as the API server would refuse it.
//
// Decode reads a yaml.v3 tree. For the large inputs of a fleet, the fast
// decoders (DecodeFast, DecodeLean, DecodeNodeFast, DecodeOtherFast) read
// an item straight from its text instead: one decoding logic over two
// readers, block for the block-style YAML kubectl -o yaml, kpt and
// nfd-worker write, and jsonReader for the JSON kubectl -o json writes
// (see reader). Each reader accepts a subset of its format in which it
// reads exactly what yaml.v3 reads, and the decoding accepts exactly what
// the strict decoder reads cleanly; anything else is left to Decode,
// which reads it or says what is wrong. Differential tests and fuzz
// targets (FuzzFastDecode, FuzzFastDecodeJSON) hold the fast decoders to
// the general path. JSON is not read with encoding/json, which matches
// field names case-insensitively, keeps the last of a key given twice and
// accepts escapes yaml.v3 refuses: it would read objects the general path
// reports. Nor with jsontext's tokenizer, which alone takes as long as
// jsonReader's whole read (see jsonReader).
//
// The package does no logging; reading files is confined to ReadPaths.
package objects
