// Command nfd-fn renders node-feature-discovery rules offline: as a KRM
// function it reads a ResourceList on stdin and writes the Nodes nfd-master
// would produce. See README.md.
package main

import (
	"os"

	"github.com/nfd-fn/nfd-fn/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
