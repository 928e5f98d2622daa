package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// module is the module path the SBOMs describe.
const module = "github.com/nfd-fn/nfd-fn"

// checkSBOM checks the CycloneDX SBOM of the archive's binary (named as
// the archive, .cdx.json for .tar.gz or .zip): there, named in
// checksums.txt, describing the module.
func checkSBOM(dist string, a archive, sums map[string]string) []string {
	name := fmt.Sprintf("nfd-fn_%s_%s_%s.cdx.json", a.version, a.os, a.arch)
	b, err := os.ReadFile(filepath.Join(dist, name))
	if err != nil {
		return []string{fmt.Sprintf("%s has no SBOM: %v", a.name, err)}
	}
	var bom struct {
		BOMFormat string `json:"bomFormat"`
		Metadata  struct {
			Component struct {
				Name string `json:"name"`
			} `json:"component"`
		} `json:"metadata"`
	}
	var problems []string
	if err := json.Unmarshal(b, &bom); err != nil || bom.BOMFormat != "CycloneDX" || bom.Metadata.Component.Name != module {
		problems = append(problems, fmt.Sprintf("%s: not a CycloneDX SBOM of %s (format %q, component %q, %v)", name, module, bom.BOMFormat, bom.Metadata.Component.Name, err))
	}
	if _, ok := sums[name]; !ok {
		problems = append(problems, fmt.Sprintf("checksums.txt does not name %s", name))
	}
	return problems
}

// krewPlugin is the part of a krew plugin manifest checked here.
type krewPlugin struct {
	Spec struct {
		Platforms []struct {
			URI      string `yaml:"uri"`
			SHA256   string `yaml:"sha256"`
			Bin      string `yaml:"bin"`
			Selector struct {
				MatchLabels map[string]string `yaml:"matchLabels"`
			} `yaml:"selector"`
		} `yaml:"platforms"`
	} `yaml:"spec"`
}

// checkKrew checks dist/krew/nfd-fn.yaml: one platform per archive, each
// with the archive's URL, sha256, os and arch.
func checkKrew(dist string, archives []archive, sums map[string]string) []string {
	const name = "krew/nfd-fn.yaml"
	b, err := os.ReadFile(filepath.Join(dist, name))
	if err != nil {
		return []string{err.Error()}
	}
	var plugin krewPlugin
	if err := yaml.Unmarshal(b, &plugin); err != nil {
		return []string{fmt.Sprintf("%s: %v", name, err)}
	}
	var problems []string
	covered := map[string]bool{}
	for i, p := range plugin.Spec.Platforms {
		base := path.Base(p.URI)
		a, ok := parseArchiveName(base)
		switch {
		case !ok || sums[base] == "":
			problems = append(problems, fmt.Sprintf("%s: platform %d points at %q, not an archive of this release", name, i, p.URI))
		case p.SHA256 != sums[base]:
			problems = append(problems, fmt.Sprintf("%s: platform %d gives %s sha256 %s, checksums.txt %s", name, i, base, p.SHA256, sums[base]))
		case p.Selector.MatchLabels["os"]+"/"+p.Selector.MatchLabels["arch"] != a.platform():
			problems = append(problems, fmt.Sprintf("%s: platform %d selects %v for %s", name, i, p.Selector.MatchLabels, base))
		case strings.TrimSuffix(p.Bin, ".exe") != "nfd-fn":
			problems = append(problems, fmt.Sprintf("%s: platform %d runs %q, not nfd-fn", name, i, p.Bin))
		default:
			covered[base] = true
		}
	}
	for _, a := range archives {
		if !covered[a.name] {
			problems = append(problems, fmt.Sprintf("%s has no platform for %s", name, a.name))
		}
	}
	return problems
}

// caskField finds a cask's version, url and sha256 lines.
var caskField = regexp.MustCompile(`^\s*(version|url|sha256)\s+"([^"]+)"`)

// checkCask checks the Homebrew cask goreleaser wrote: each url (with the
// cask's #{version} filled in) has the sha256 of its archive, and every
// darwin and linux archive has a url.
func checkCask(dist string, archives []archive, sums map[string]string) []string {
	const name = "homebrew/Casks/nfd-fn.rb"
	b, err := os.ReadFile(filepath.Join(dist, name))
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	covered := map[string]bool{}
	var version, url, sum string
	for _, line := range strings.Split(string(b), "\n") {
		m := caskField.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch m[1] {
		case "version":
			version = m[2]
		case "url":
			url = strings.ReplaceAll(path.Base(m[2]), "#{version}", version)
		default:
			sum = m[2]
		}
		if url == "" || sum == "" {
			continue
		}
		if sums[url] != sum {
			problems = append(problems, fmt.Sprintf("%s: %s has sha256 %s, checksums.txt %q", name, url, sum, sums[url]))
		}
		covered[url] = true
		url, sum = "", ""
	}
	for _, a := range archives {
		if a.os != "windows" && !covered[a.name] {
			problems = append(problems, fmt.Sprintf("%s has no url for %s", name, a.name))
		}
	}
	return problems
}
