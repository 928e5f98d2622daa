// Command benchhostile holds nfd-fn's peak memory on the old hostile
// corpus to issue 34's limits, as /usr/bin/time -v measures it (the
// kernel's peak RSS of the finished process):
//
//   - a static error on each of 60,000 small NodeFeatures (an unquoted
//     attribute, NFD002; 12 MB): at most -max-ratio (20) times the
//     input's size, for validate and render;
//   - a rule whose labelsTemplate does not parse (a static error) matching
//     60,000 small NodeFeatures (15 MB): at most -max-ratio times the
//     input's size, for validate and render (issue 26's last leftover,
//     a test until its peak proved to move with the machine's load);
//   - 40,000 broken rules in one NodeFeatureRule (an op outside the enum;
//     9 MB): at most -max-rules-mb (1,024) MiB, for validate and render.
//
// It writes the inputs into a temporary directory, runs each command
// -runs times and compares the median; it exits 1 when a limit is missed.
//
//	benchhostile -fn ./nfd-fn
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

func main() {
	fnBin := flag.String("fn", "", "nfd-fn binary")
	runs := flag.Int("runs", 3, "runs of each command; the median peak is compared")
	maxRatio := flag.Float64("max-ratio", 20, "allowed peak RSS over the input's size, 60,000 NodeFeatures")
	maxRulesMB := flag.Int64("max-rules-mb", 1024, "allowed peak RSS in MiB, 40,000 broken rules")
	flag.Parse()
	if *fnBin == "" {
		flag.Usage()
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "benchhostile-")
	check(err)
	defer os.RemoveAll(dir)
	features := write(dir, "nodefeatures-60000.yaml", staticErrors(60000))
	rules := write(dir, "broken-rules-40000.yaml", brokenRules(40000))
	template := write(dir, "broken-template-60000.yaml", brokenTemplate(60000))
	missed := false
	for _, cmd := range []string{"validate", "render"} {
		size := fileSize(features)
		peak := medianPeak(*runs, *fnBin, cmd, features)
		limit := int64(*maxRatio * float64(size))
		missed = report(fmt.Sprintf("%s, a static error on 60,000 NodeFeatures (%.1f MB)", cmd, mb(size)), peak, limit) || missed
		size = fileSize(template)
		peak = medianPeak(*runs, *fnBin, cmd, template)
		limit = int64(*maxRatio * float64(size))
		missed = report(fmt.Sprintf("%s, a broken template on 60,000 nodes (%.1f MB)", cmd, mb(size)), peak, limit) || missed
		peak = medianPeak(*runs, *fnBin, cmd, rules)
		missed = report(fmt.Sprintf("%s, 40,000 broken rules (%.1f MB)", cmd, mb(fileSize(rules))), peak, *maxRulesMB<<20) || missed
	}
	if missed {
		os.Exit(1)
	}
}

// staticErrors is n NodeFeatures of about 200 bytes, each with an int
// where the CRD takes a string: a static error (NFD002) on every one.
func staticErrors(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata:\n  name: node-%05[1]d\n  namespace: nfd\n"+
			"  labels:\n    nfd.node.kubernetes.io/node-name: node-%05[1]d\nspec:\n  features:\n    attributes:\n      kernel.version:\n        elements:\n          major: 6\n", i)
	}
	return b.String()
}

// brokenTemplate is one rule whose labelsTemplate does not parse,
// matching each of n small NodeFeatures: one static error naming them.
func brokenTemplate(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: broken\nspec:\n  rules:\n" +
		"  - name: bad\n    labelsTemplate: \"{{ .x\"\n    matchFeatures:\n    - feature: kernel.loadedmodule\n" +
		"      matchExpressions:\n        dummy: {op: Exists}\n")
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata:\n  name: w%05[1]d\n  labels:\n"+
			"    nfd.node.kubernetes.io/node-name: w%05[1]d\nspec:\n  features:\n    flags:\n      kernel.loadedmodule:\n"+
			"        elements:\n          dummy: {}\n", i)
	}
	return b.String()
}

// brokenRules is one NodeFeatureRule of n rules of about 225 bytes, each
// with an op outside the enum.
func brokenRules(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: broken\nspec:\n  rules:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: broken-rule-%05[1]d\n    labels:\n      example.com/broken-%05[1]d: \"true\"\n    matchFeatures:\n"+
			"    - feature: cpu.cpuid\n      matchExpressions:\n        AVX512F: {op: Bogus, value: [\"x\"]}\n", i)
	}
	return b.String()
}

// medianPeak runs `bin cmd file` runs times and returns the median peak
// RSS in bytes.
func medianPeak(runs int, bin, cmd, file string) int64 {
	var peaks []int64
	for range runs {
		c := exec.Command(bin, cmd, file)
		err := c.Run() // exit 1: the corpus is broken on purpose
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			check(err)
		}
		ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			check(fmt.Errorf("no resource usage for %s", bin))
		}
		peaks = append(peaks, ru.Maxrss<<10)
	}
	slices.Sort(peaks)
	return peaks[len(peaks)/2]
}

// report prints one line and says whether the peak misses its limit.
func report(what string, peak, limit int64) bool {
	verdict := "ok"
	if peak > limit {
		verdict = "MISSED"
	}
	fmt.Printf("%-62s peak %7.1f MiB, limit %7.1f MiB: %s\n", what, mb(peak), mb(limit), verdict)
	return peak > limit
}

func write(dir, name, text string) string {
	path := filepath.Join(dir, name)
	check(os.WriteFile(path, []byte(text), 0o644))
	return path
}

func fileSize(path string) int64 {
	info, err := os.Stat(path)
	check(err)
	return info.Size()
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchhostile:", err)
		os.Exit(2)
	}
}
