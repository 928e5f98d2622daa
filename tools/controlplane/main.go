// Command controlplane builds etcd, kube-apiserver and kubectl from the Go
// module proxy into a cache keyed by their versions
// ($XDG_CACHE_HOME/nfd-fn/controlplane/<versions>/), unless the cache
// holds them already, and prints the cache directory. Its tests start the
// two servers on loopback and check nfd-fn's admission verdicts, its
// apply output and a takeover from nfd-master against them
// (make e2e-controlplane).
package main

import (
	"fmt"
	"os"
)

func main() {
	dir, err := ensure(os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "controlplane:", err)
		os.Exit(1)
	}
	fmt.Println(dir)
}
