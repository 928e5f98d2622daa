// Command yamlbaseline is the yardstick of nfd-fn's speed milestone: it
// does nothing but a bare go.yaml.in/yaml/v3 parse of stdin into a node
// tree. `make bench` compares nfd-fn's wall time and peak memory with it.
package main

import (
	"fmt"
	"io"
	"os"

	"go.yaml.in/yaml/v3"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
