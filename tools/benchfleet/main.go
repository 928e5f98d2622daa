// Command benchfleet measures nfd-fn as a whole process against issue 16's
// targets: on the 1,000-node fleet, at most 0.2x the wall time and 0.08x
// the peak memory of a bare yaml.v3 parse of the same file, measured side
// by side (the two commands run in turn, -runs times each, and the
// medians are compared, so a drift of the shared machine's speed hits
// both); and a peak memory that does not grow with the fleet: at 5,000
// nodes within 1.25x of the peak at 1,000, whether stdin is a file or a
// pipe. With -export, the same wall and memory targets on a kubectl-style
// export of the fleet (internal/exportgen: a v1 List with a Node object
// per node, full status), from stdin and as a file argument
// (`nfd-fn render export-1000.yaml`). With -packages, the fleets as kpt
// packages of one file per object (internal/pkggen), rendered as a
// directory argument: the 1,000-node one is held to the wall and memory
// targets against the parse of the same objects (-input), and peak memory
// to the same growth target. Wall, CPU (user + system) and peak RSS are
// the kernel's accounting of each finished child.
//
//	benchfleet -input fleet-1000.yaml -fn ./nfd-fn -baseline ./yamlbaseline \
//	    -scale 200=fleet-200.yaml,1000=fleet-1000.yaml,5000=fleet-5000.yaml \
//	    -export export-1000.yaml -packages 200=pkg-200,1000=pkg-1000,5000=pkg-5000
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

type measurement struct {
	wall, cpu time.Duration
	maxKB     int64
}

func main() {
	input := flag.String("input", "", "ResourceList to process (the 1,000-node fleet)")
	fnBin := flag.String("fn", "", "nfd-fn binary")
	baseline := flag.String("baseline", "", "yamlbaseline binary")
	scale := flag.String("scale", "", "NODES=FILE,... fleets whose nfd-fn peak memory is printed; the smallest and largest above 1,000 nodes are compared with 1,000")
	runs := flag.Int("runs", 3, "runs of each command; medians are compared")
	maxTime := flag.Float64("max-time-ratio", 0.2, "allowed wall time ratio to the yaml.v3 parse")
	maxMem := flag.Float64("max-mem-ratio", 0.08, "allowed peak memory ratio to the yaml.v3 parse")
	maxGrowth := flag.Float64("max-mem-growth", 1.25, "allowed peak memory at the largest fleet over the peak at 1,000 nodes")
	export := flag.String("export", "", "the fleet as a kubectl export with Node objects, held to the same wall and memory targets, on stdin and as a file argument")
	jsonExport := flag.String("json-export", "", "the export as kubectl get -o json prints it, held to the same targets on stdin and as a file argument, against the yaml.v3 parse of the same file")
	packages := flag.String("packages", "", "NODES=DIR,... the fleets as packages of one file per object, rendered as directory arguments; 1000 is held to the wall, memory and growth targets")
	flag.Parse()
	if *input == "" || *fnBin == "" || *baseline == "" {
		flag.Usage()
		os.Exit(2)
	}
	got, tr, mr := sideBySide("1,000 nodes", *fnBin, *baseline, *input, *runs, *maxTime, *maxMem)
	missed := tr > *maxTime || mr > *maxMem
	if *export != "" {
		_, tr, mr := sideBySide("1,000-node export with Node objects", *fnBin, *baseline, *export, *runs, *maxTime, *maxMem)
		missed = missed || tr > *maxTime || mr > *maxMem
		_, tr, mr = sideBySideRun("1,000-node export as a file argument", run{*fnBin, []string{"render", *export}, ""}, *baseline, *export, *runs, *maxTime, *maxMem)
		missed = missed || tr > *maxTime || mr > *maxMem
	}
	if *jsonExport != "" {
		_, tr, mr := sideBySide("1,000-node export as JSON", *fnBin, *baseline, *jsonExport, *runs, *maxTime, *maxMem)
		missed = missed || tr > *maxTime || mr > *maxMem
		_, tr, mr = sideBySideRun("1,000-node JSON export as a file argument", run{*fnBin, []string{"render", *jsonExport}, ""}, *baseline, *jsonExport, *runs, *maxTime, *maxMem)
		missed = missed || tr > *maxTime || mr > *maxMem
	}
	if *packages != "" {
		missed = benchPackages(*packages, *fnBin, *baseline, *input, *runs, *maxTime, *maxMem, *maxGrowth) || missed
	}
	var piped []measurement
	for i := 0; i < *runs; i++ {
		m, err := measureWith(*fnBin, *input, true)
		check(err)
		piped = append(piped, m)
	}
	p := median(piped)
	pr := float64(p.maxKB) / float64(got.maxKB)
	fmt.Printf("stdin as a pipe (spooled), 1,000 nodes: %.2fs, %d MiB (%.2fx the peak from a file; target: <= %.2fx)\n",
		p.wall.Seconds(), p.maxKB/1024, pr, *maxGrowth)
	missed = missed || pr > *maxGrowth

	if *scale != "" {
		peaks := map[int]int64{1000: got.maxKB}
		for n, file := range parseScale(*scale) {
			if n != 1000 {
				peaks[n] = medianOf(*runs, run{*fnBin, nil, file}).maxKB
			}
		}
		missed = printGrowth("stdin", peaks, got.maxKB, *runs, *maxGrowth) || missed
	}
	if missed {
		fmt.Println("targets: MISSED")
		os.Exit(1)
	}
	fmt.Println("targets: met")
}

// sideBySide runs nfd-fn and the yaml.v3 parse on input in turn, runs
// times each, prints the medians and returns nfd-fn's with its wall and
// memory ratios.
func sideBySide(label, fnBin, baseline, input string, runs int, maxTime, maxMem float64) (measurement, float64, float64) {
	return sideBySideRun(label, run{fnBin, nil, input}, baseline, input, runs, maxTime, maxMem)
}

// sideBySideRun is sideBySide with nfd-fn run as fn says.
func sideBySideRun(label string, fn run, baseline, input string, runs int, maxTime, maxMem float64) (measurement, float64, float64) {
	var fnRuns, baseRuns []measurement
	for i := 0; i < runs; i++ {
		m, err := fn.measure(false)
		check(err)
		fnRuns = append(fnRuns, m)
		m, err = measure(baseline, input)
		check(err)
		baseRuns = append(baseRuns, m)
	}
	got, base := median(fnRuns), median(baseRuns)
	tr := got.wall.Seconds() / base.wall.Seconds()
	cr := got.cpu.Seconds() / base.cpu.Seconds()
	mr := float64(got.maxKB) / float64(base.maxKB)
	fmt.Printf("%s, medians of %d runs in turn:\n%40s %9s %9s %10s\n", label, runs, "", "wall", "CPU", "peak RSS")
	fmt.Printf("%-40s %8.2fs %8.2fs %6d MiB\n", "yaml.v3 parse:", base.wall.Seconds(), base.cpu.Seconds(), base.maxKB/1024)
	fmt.Printf("%-40s %8.2fs %8.2fs %6d MiB\n", "nfd-fn render:", got.wall.Seconds(), got.cpu.Seconds(), got.maxKB/1024)
	fmt.Printf("%-40s %8.2fx %8.2fx %6.3fx  (target: <= %.2fx wall, <= %.2fx memory)\n", "ratio:", tr, cr, mr, maxTime, maxMem)
	return got, tr, mr
}

// benchPackages measures the fleets as packages (spec: NODES=DIR,...):
// the 1,000-node one side by side with the parse of input, the same
// objects in one file, and every one's peak memory against it. It
// reports whether a target was missed.
func benchPackages(spec, fnBin, baseline, input string, runs int, maxTime, maxMem, maxGrowth float64) bool {
	dirs := parseScale(spec)
	dir1000, ok := dirs[1000]
	if !ok {
		check(fmt.Errorf("-packages: no 1000=DIR"))
	}
	got, tr, mr := sideBySideRun("1,000-node fleet as a package directory", run{fnBin, []string{"render", dir1000}, ""}, baseline, input, runs, maxTime, maxMem)
	missed := tr > maxTime || mr > maxMem
	peaks := map[int]int64{1000: got.maxKB}
	for n, dir := range dirs {
		if n != 1000 {
			peaks[n] = medianOf(runs, run{fnBin, []string{"render", dir}, ""}).maxKB
		}
	}
	return printGrowth("package", peaks, got.maxKB, runs, maxGrowth) || missed
}

// median takes each figure's median separately.
func median(ms []measurement) measurement {
	pick := func(less func(a, b measurement) bool) measurement {
		s := append([]measurement(nil), ms...)
		sort.Slice(s, func(i, j int) bool { return less(s[i], s[j]) })
		return s[len(s)/2]
	}
	return measurement{
		wall:  pick(func(a, b measurement) bool { return a.wall < b.wall }).wall,
		cpu:   pick(func(a, b measurement) bool { return a.cpu < b.cpu }).cpu,
		maxKB: pick(func(a, b measurement) bool { return a.maxKB < b.maxKB }).maxKB,
	}
}

// measure runs bin with input on stdin (a regular file, as a shell
// redirection gives it) and its output to /dev/null.
func measure(bin, input string) (measurement, error) { return run{bin, nil, input}.measure(false) }

// measureWith is measure, with stdin a pipe when piped is set (as
// `cat fleet.yaml | nfd-fn` or kpt gives it).
func measureWith(bin, input string, piped bool) (measurement, error) {
	return run{bin, nil, input}.measure(piped)
}

// run is one command: a binary, its arguments and the file on its stdin
// (none: /dev/null).
type run struct {
	bin   string
	args  []string
	stdin string
}

// medianOf measures r runs times and returns the medians.
func medianOf(runs int, r run) measurement {
	var ms []measurement
	for i := 0; i < runs; i++ {
		m, err := r.measure(false)
		check(err)
		ms = append(ms, m)
	}
	return median(ms)
}

// measure runs the command with its output to /dev/null, stdin a pipe
// when piped is set.
func (r run) measure(piped bool) (measurement, error) {
	stdin := r.stdin
	if stdin == "" {
		stdin = os.DevNull
	}
	in, err := os.Open(stdin)
	if err != nil {
		return measurement{}, err
	}
	defer in.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return measurement{}, err
	}
	defer null.Close()
	cmd := exec.Command(r.bin, r.args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, null, null
	if piped {
		cmd.Stdin = struct{ io.Reader }{in} // not an *os.File: exec copies it through a pipe
	}
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return measurement{}, fmt.Errorf("running %s: %w", r.bin, err)
		}
	}
	m := measurement{wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		m.maxKB = ru.Maxrss
		m.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return m, nil
}

// parseScale reads NODES=PATH,...
func parseScale(spec string) map[int]string {
	out := map[int]string{}
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(kv, "=")
		var n int
		if _, err := fmt.Sscan(k, &n); !ok || err != nil {
			check(fmt.Errorf("%q is not NODES=PATH", kv))
		}
		out[n] = v
	}
	return out
}

// printGrowth prints peak memory by fleet size (peaks, with at1000 the
// peak at 1,000 nodes) and reports whether the largest fleet's peak grew
// past maxGrowth times at1000.
func printGrowth(how string, peaks map[int]int64, at1000 int64, runs int, maxGrowth float64) bool {
	var sizes []int
	for n := range peaks {
		sizes = append(sizes, n)
	}
	sort.Ints(sizes)
	fmt.Printf("nfd-fn peak RSS by fleet size, input as %s (medians of %d runs):\n", how, runs)
	for _, n := range sizes {
		fmt.Printf("  %5d nodes: %6d MiB  (%.2fx the peak at 1,000)\n", n, peaks[n]/1024, float64(peaks[n])/float64(at1000))
	}
	largest := sizes[len(sizes)-1]
	if largest <= 1000 {
		return false
	}
	growth := float64(peaks[largest]) / float64(at1000)
	fmt.Printf("growth 1,000 -> %d nodes: %.2fx (target: <= %.2fx)\n", largest, growth, maxGrowth)
	return growth > maxGrowth
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchfleet:", err)
		os.Exit(1)
	}
}
