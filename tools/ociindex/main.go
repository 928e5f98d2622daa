// Command ociindex turns the per-platform images of an OCI layout into one
// multi-platform image under one full name: it reads the manifests tagged
// with the given ref names, writes an OCI image index listing each with the
// platform its config names, and rewrites index.json to hold that index
// alone, annotated with the full name (org.opencontainers.image.ref.name),
// which `podman load` and `skopeo copy oci-archive:...` take as the image's
// name. hack/image.sh runs it after building each platform with umoci.
//
//	go -C tools run ./ociindex -layout DIR -name ghcr.io/nfd-fn/nfd-fn:v1.2.3 amd64 arm64
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	dir := flag.String("layout", "", "the OCI layout directory")
	name := flag.String("name", "", "the full image name the index gets (registry/repository:tag)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: ociindex -layout DIR -name REF TAG...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *dir == "" || *name == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := merge(*dir, *name, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "ociindex:", err)
		os.Exit(1)
	}
}
