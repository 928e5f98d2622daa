// Command nfd-fn renders node-feature-discovery rules offline: as a KRM
// function it reads a ResourceList on stdin and writes the Nodes nfd-master
// would produce. See README.md.
package main

import (
	"os"

	"github.com/nfd-fn/nfd-fn/cli"
	"github.com/nfd-fn/nfd-fn/internal/heapfloor"
)

func main() {
	heapfloor.Start(heapfloor.DefaultFloor) // unless GOGC or GOMEMLIMIT is set
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
