package doctest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// documentedImage is the image the docs run with kpt fn eval --image and
// kustomize's container functions.
var documentedImage = "ghcr.io/nfd-fn/nfd-fn:" + version.Release

// runStub is the test binary standing in for a command (see the package
// documentation); it returns the exit code.
func runStub(name string, args []string) int {
	var err error
	switch name {
	case "kubectl":
		err = kubectlStub(args, os.Stdout)
	case "docker":
		err = dockerStub(args)
	case "go":
		err = goStub(args)
	case "make":
		err = makeStub(args)
	default:
		err = fmt.Errorf("no stub named %q", name)
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return exitErr.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s (doc test stub): %v\n", name, err)
		return 1
	}
	return 0
}

// kubectlStub serves `kubectl get ... -o yaml` from the cluster export
// fixture and checks `kubectl apply` as the README runs it.
func kubectlStub(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("no command")
	}
	switch args[0] {
	case "get":
		if !hasArg(args, "-o", "yaml") {
			return fmt.Errorf("the stub serves `get ... -o yaml` only, not %q", strings.Join(args, " "))
		}
		kinds := strings.Split(args[1], ",")
		if !contains(kinds, "nodes") || !contains(kinds, "nodefeatures") {
			return fmt.Errorf("the stub serves an export of nodes and nodefeatures, not %q", args[1])
		}
		data, err := os.ReadFile(os.Getenv("NFD_FN_DOCTEST_EXPORT"))
		if err != nil {
			return err
		}
		_, err = stdout.Write(data)
		return err
	case "apply":
		file, ok := argValue(args, "-f")
		if !ok || !contains(args, "--server-side") || !contains(args, "--field-manager=nfd-fn") {
			return fmt.Errorf("apply needs --server-side --field-manager=nfd-fn -f FILE, as nfd-fn's apply output is made for: %q", strings.Join(args, " "))
		}
		for _, a := range args[1:] {
			switch {
			case a == "--server-side", a == "--field-manager=nfd-fn", a == "--subresource=status", a == "-f", a == file:
			default:
				return fmt.Errorf("apply: the stub does not know %q", a)
			}
		}
		names, err := nodeNames(file, contains(args, "--subresource=status"))
		if err != nil {
			return err
		}
		for _, n := range names {
			fmt.Fprintf(stdout, "node/%s serverside-applied\n", n)
		}
		return nil
	}
	return fmt.Errorf("the stub knows get and apply, not %q", args[0])
}

// nodeNames reads a YAML stream that must hold only Nodes, each in the
// shape its apply takes: for the status subresource the name and status
// alone, else no status (server-side apply keeps one applied set per
// subresource, so one stream applied to both would own fields twice).
func nodeNames(file string, status bool) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var names []string
	for {
		var obj map[string]any
		err := dec.Decode(&obj)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		md, _ := obj["metadata"].(map[string]any)
		name, _ := md["name"].(string)
		if obj["apiVersion"] != "v1" || obj["kind"] != "Node" || name == "" {
			return nil, fmt.Errorf("%s holds a %v %v %q: kubectl apply is shown for Nodes only", file, obj["apiVersion"], obj["kind"], name)
		}
		if err := applyShape(obj, md, status); err != nil {
			return nil, fmt.Errorf("%s: Node %s: %v", file, name, err)
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no Node", file)
	}
	return names, nil
}

// applyShape checks that a Node holds only what its apply may own.
func applyShape(obj, md map[string]any, status bool) error {
	if !status {
		if _, ok := obj["status"]; ok {
			return fmt.Errorf("a status in the main resource's apply (use nfd-fn render -o apply)")
		}
		return nil
	}
	for k := range obj {
		if k != "apiVersion" && k != "kind" && k != "metadata" && k != "status" {
			return fmt.Errorf("%s in the status subresource's apply (use nfd-fn render -o apply-status)", k)
		}
	}
	if len(md) != 1 {
		return fmt.Errorf("metadata beyond the name in the status subresource's apply (use nfd-fn render -o apply-status)")
	}
	return nil
}

// dockerFlagsWithValue are the `docker run` flags kpt and kustomize pass
// that take a separate value.
var dockerFlagsWithValue = map[string]bool{
	"--network": true, "--user": true, "--pull": true, "--mount": true, "-v": true,
	"-e": true, "--env": true, "-a": true, "--workdir": true, "-w": true, "--name": true,
}

// dockerStub answers kpt's version check and runs the nfd-fn binary for
// `docker run` of the documented image.
func dockerStub(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("no command")
	}
	switch args[0] {
	case "version":
		fmt.Println("28.2.2")
		return nil
	case "run":
		i := 1
		for i < len(args) && strings.HasPrefix(args[i], "-") {
			if dockerFlagsWithValue[args[i]] {
				i++
			}
			i++
		}
		if i >= len(args) {
			return fmt.Errorf("run: no image in %q", strings.Join(args, " "))
		}
		if args[i] != documentedImage {
			return fmt.Errorf("run: the stub runs %s, the image the docs show, not %s", documentedImage, args[i])
		}
		cmd := exec.Command(os.Getenv("NFD_FN_DOCTEST_NFDFN"), args[i+1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		return cmd.Run()
	}
	return fmt.Errorf("the stub knows version and run, not %q", args[0])
}

// goTestFlagsWithValue are go test flags that take a separate value.
var goTestFlagsWithValue = map[string]bool{
	"-run": true, "-bench": true, "-count": true, "-timeout": true, "-benchtime": true, "-fuzz": true,
	"-fuzztime": true, "-cpu": true, "-tags": true, "-ldflags": true, "-list": true, "-skip": true,
}

// goStub runs go, except that `go test` lists what it would run: the
// tests and benchmarks named by -run or -bench must exist, and the test
// binary must accept the flags given. A ./... pattern is resolved only:
// that is the whole suite, this test included.
func goStub(args []string) error {
	realGo := os.Getenv("NFD_FN_DOCTEST_GO")
	run := func(args ...string) error {
		cmd := exec.Command(realGo, args...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		return cmd.Run()
	}
	if len(args) == 0 || args[0] != "test" {
		return run(args...)
	}
	var pkgs, flags []string
	pattern := "."
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			pkgs = append(pkgs, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		if goTestFlagsWithValue[name] && !hasValue {
			if i+1 >= len(args) {
				return fmt.Errorf("go test: %s needs a value", a)
			}
			i++
			value = args[i]
		}
		switch name {
		case "-run":
			if value != "^$" && pattern == "." {
				pattern = value
			}
		case "-bench":
			pattern = value
		case "-count", "-benchtime", "-timeout", "-list", "-skip":
		default:
			flags = append(flags, a)
		}
	}
	for _, p := range pkgs {
		if strings.Contains(p, "...") {
			fmt.Fprintf(os.Stderr, "go (doc test stub): go test %s is the suite this test runs in: resolving the packages only\n", strings.Join(args[1:], " "))
			return run(append([]string{"list"}, pkgs...)...)
		}
	}
	listArgs := append(append(append([]string{"test"}, pkgs...), flags...), "-list", pattern)
	cmd := exec.Command(realGo, listArgs...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		os.Stdout.Write(out.Bytes())
		return err
	}
	listed := 0
	for _, line := range strings.Split(out.String(), "\n") {
		if line != "" && !strings.HasPrefix(line, "ok ") && !strings.HasPrefix(line, "?") {
			listed++
		}
	}
	if listed == 0 {
		return fmt.Errorf("go test %s would run nothing (%s matches no test or benchmark)", strings.Join(args[1:], " "), pattern)
	}
	fmt.Fprintf(os.Stderr, "go (doc test stub): go test %s lists %d tests and benchmarks; not run here\n", strings.Join(args[1:], " "), listed)
	return nil
}

// makeStub dry-runs make: the target must exist and its recipe expand.
func makeStub(args []string) error {
	path, err := lookPathOutside(os.Getenv("NFD_FN_DOCTEST_STUBDIR"), "make")
	if err != nil {
		return err
	}
	cmd := exec.Command(path, append([]string{"-n"}, args...)...)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	return cmd.Run()
}

// lookPathOutside finds a command on PATH, skipping the stub directory.
func lookPathOutside(stubDir, name string) (string, error) {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == stubDir {
			continue
		}
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not installed", name)
}

func hasArg(args []string, flag, value string) bool {
	for i, a := range args {
		if a == flag+"="+value || a == flag+value || (a == flag && i+1 < len(args) && args[i+1] == value) {
			return true
		}
	}
	return false
}

func argValue(args []string, flag string) (string, bool) {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
