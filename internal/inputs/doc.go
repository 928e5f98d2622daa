// Package inputs is nfd-fn's one reader of its input, for every mode and
// both drivers (the KRM function and the command line): files and
// directories (walked for .yaml, .yml and .json), standard input as the
// file "-", ResourceLists given as files, kubectl's exports and v1 Lists,
// all cut into krm items and decoded on the worker pool; the items then
// become one objects.Set (AddItems, Reader), with the NFD release they are
// rendered as settled and admitted (Admit), and the workloads among them
// read for mode plan (Workloads).
//
// How an item is decoded (the lean readers for NodeFeatures and Nodes,
// the strict decoder for the rest) is the caller's, handed in as a
// Decoding: fn owns the decoders and the write path they serve.
package inputs
