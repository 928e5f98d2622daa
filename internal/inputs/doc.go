// Package inputs is nfd-fn's one reader of its input, for every mode and
// both drivers (the KRM function and the command line): files and
// directories (walked for .yaml, .yml and .json), standard input as the
// file "-", ResourceLists given as files, kubectl's exports and v1 Lists,
// all cut into krm items and decoded on the worker pool; the items then
// become one objects.Set (AddItems, Reader), with the NFD release they are
// rendered as settled and admitted (Admit), and the workloads among them
// read for mode plan (Workloads).
//
// How an item is decoded is the reader's too (decode.go): the lean readers
// of internal/fastread for NodeFeatures, Nodes and objects passed through,
// the strict decoder (objects.Decode) for the rest, and which trees each
// read keeps (for a render, for validate's checks, for workloads). It is
// the only importer of internal/fastread; fn writes the items it decodes.
package inputs
