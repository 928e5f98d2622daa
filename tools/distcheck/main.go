// Command distcheck checks what `goreleaser release` wrote into dist/
// before anything is published: checksums.txt matches every file it names
// and names every archive and SBOM; each archive of the expected platforms
// holds an nfd-fn binary built for its platform (the host's own archive's
// binary must also print the release's version); each archive has its SBOM;
// and the krew manifest and the Homebrew cask point at the archives by name
// and sha256. make release-snapshot runs it.
//
//	go -C tools run ./distcheck -dist ../dist
package main

import (
	"flag"
	"fmt"
	"os"
)

// platforms are the os/arch pairs a release has archives for.
var platforms = []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64"}

func main() {
	dist := flag.String("dist", "dist", "goreleaser's output directory")
	flag.Parse()
	problems, err := check(*dist)
	if err != nil {
		fmt.Fprintln(os.Stderr, "distcheck:", err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "distcheck:", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "distcheck: %s: checksums, %d archives with their binaries and SBOMs, the krew manifest and the Homebrew cask agree\n", *dist, len(platforms))
}

// check runs every check on dist and returns what is wrong; err is for a
// dist that cannot be read at all.
func check(dist string) ([]string, error) {
	sums, err := readChecksums(dist)
	if err != nil {
		return nil, err
	}
	problems := verifyChecksums(dist, sums)
	archives, more := findArchives(dist, sums)
	problems = append(problems, more...)
	for _, a := range archives {
		problems = append(problems, a.checkBinary(dist)...)
		problems = append(problems, checkSBOM(dist, a, sums)...)
	}
	problems = append(problems, checkKrew(dist, archives, sums)...)
	problems = append(problems, checkCask(dist, archives, sums)...)
	return problems, nil
}
