package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// readChecksums reads dist/checksums.txt: file name to sha256.
func readChecksums(dist string) (map[string]string, error) {
	f, err := os.Open(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	s := bufio.NewScanner(f)
	for n := 1; s.Scan(); n++ {
		sum, name, ok := strings.Cut(s.Text(), "  ")
		if !ok || len(sum) != sha256.Size*2 || name == "" {
			return nil, fmt.Errorf("checksums.txt:%d: not \"<sha256>  <file>\": %q", n, s.Text())
		}
		sums[name] = sum
	}
	return sums, s.Err()
}

// verifyChecksums recomputes the sha256 of every file checksums.txt names.
func verifyChecksums(dist string, sums map[string]string) []string {
	var problems []string
	for name, want := range sums {
		got, err := fileSHA256(filepath.Join(dist, name))
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("checksums.txt names %s: %v", name, err))
		case got != want:
			problems = append(problems, fmt.Sprintf("checksums.txt: %s has sha256 %s, the file %s", name, want, got))
		}
	}
	return problems
}

// fileSHA256 is the hex sha256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
