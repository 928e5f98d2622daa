//go:build !unix

package krm

import "os"

// mapFile does not map on this platform: the caller reads the file.
func mapFile(*os.File, string, bool, int) (*Input, error) { return nil, nil }

func releasePages(data, b []byte) {}

func unmap([]byte) error { return nil }
