//go:build !linux

package krm

import "os"

// fileLease is a read lease on a mapped file; this platform has none.
type fileLease struct{}

// lease takes no lease here: a file cut short while mapped faults, which
// FaultError turns into an error.
func lease(*os.File) (*fileLease, bool) { return nil, false }

func (*fileLease) release() {}
