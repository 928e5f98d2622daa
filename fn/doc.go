// Package fn is nfd-fn's KRM glue: it reads a ResourceList (through
// internal/krm), hands the NFD objects to the engine and renderer in pkg/,
// writes Node objects and NodeFeatureGroup status back into the list, and
// turns every problem into a KRM result pointing at the file, object and
// field.
package fn
