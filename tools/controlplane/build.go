package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The versions the control plane is built at: kube-apiserver and kubectl
// of Kubernetes 1.35 (its staging modules at the matching v0.35 tag) and
// an etcd of the 3.6 line Kubernetes 1.35 is tested with.
const (
	etcdVersion    = "v3.6.16"
	kubeVersion    = "v1.35.4"
	stagingVersion = "v0.35.4"
)

// binaries are the programs a cache directory holds once built.
var binaries = []string{"etcd", "kube-apiserver", "kubectl"}

// buildFlags compile without optimisation or symbols: a default
// kube-apiserver build takes 45 minutes and more on a loaded 2-core
// machine, 10 to 18 with these, and the tests do not need the speed.
var buildFlags = []string{"-gcflags=all=-N -l", "-ldflags=-s -w"}

// cacheDir is where the binaries of these versions live:
// $XDG_CACHE_HOME/nfd-fn/controlplane/<versions>/ (~/.cache without it).
func cacheDir() (string, error) {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no XDG_CACHE_HOME and no home directory: %w", err)
		}
		base = filepath.Join(home, ".cache")
	}
	key := "etcd-" + etcdVersion + "_kube-" + kubeVersion
	return filepath.Join(base, "nfd-fn", "controlplane", key), nil
}

// ensure returns the cache directory, building the binaries into it
// first when one is missing. The build goes to a temporary sibling that
// is renamed into place whole, so an interrupted build leaves no cache
// that looks complete. Progress goes to log.
func ensure(log io.Writer) (string, error) {
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	if complete(dir) {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".building-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := buildAll(tmp, log); err != nil {
		return "", err
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.Rename(filepath.Join(tmp, "bin"), dir); err != nil {
		return "", err
	}
	return dir, nil
}

// complete reports a cache directory holding every binary.
func complete(dir string) bool {
	for _, b := range binaries {
		if fi, err := os.Stat(filepath.Join(dir, b)); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// buildAll builds etcd, then kube-apiserver and kubectl, each in a scratch
// module under work, into work/bin.
func buildAll(work string, log io.Writer) error {
	bin := filepath.Join(work, "bin")
	etcd := filepath.Join(work, "etcd")
	kube := filepath.Join(work, "kube")
	for _, d := range []string{bin, etcd, kube} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	steps := [][]string{
		{etcd, "mod", "init", "controlplane/etcd"},
		{etcd, "get", "go.etcd.io/etcd/server/v3@" + etcdVersion},
		append(append([]string{etcd, "build"}, buildFlags...), "-o", filepath.Join(bin, "etcd"), "go.etcd.io/etcd/server/v3"),
		{kube, "mod", "init", "controlplane/kube"},
	}
	for _, s := range steps {
		if err := goRun(log, s[0], s[1:]...); err != nil {
			return err
		}
	}
	staging, err := stagingModules(kube, log)
	if err != nil {
		return err
	}
	edit := []string{"mod", "edit", "-require=k8s.io/kubernetes@" + kubeVersion}
	for _, m := range staging {
		edit = append(edit, "-replace="+m+"="+m+"@"+stagingVersion)
	}
	steps = [][]string{
		edit,
		{"get", "k8s.io/kubernetes/cmd/kube-apiserver@" + kubeVersion, "k8s.io/kubernetes/cmd/kubectl@" + kubeVersion},
		append(append([]string{"build"}, buildFlags...), "-o", bin+string(filepath.Separator),
			"k8s.io/kubernetes/cmd/kube-apiserver", "k8s.io/kubernetes/cmd/kubectl"),
	}
	for _, s := range steps {
		if err := goRun(log, kube, s...); err != nil {
			return err
		}
	}
	return nil
}

// stagingModules lists the k8s.io modules k8s.io/kubernetes's go.mod
// replaces with its staging directories: outside that repository each
// must come from the proxy at the staging tag instead.
func stagingModules(dir string, log io.Writer) ([]string, error) {
	var out bytes.Buffer
	cmd := goCommand(dir, "mod", "download", "-json", "k8s.io/kubernetes@"+kubeVersion)
	cmd.Stdout, cmd.Stderr = &out, log
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: %w", kubeVersion, err)
	}
	var info struct{ GoMod, Error string }
	if err := json.Unmarshal(out.Bytes(), &info); err != nil || info.Error != "" {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: %v %s", kubeVersion, err, info.Error)
	}
	f, err := os.Open(info.GoMod)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var mods []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[1] == "=>" && strings.HasPrefix(fields[2], "./staging/") {
			mods = append(mods, fields[0])
		}
	}
	if len(mods) == 0 {
		return nil, errors.New(info.GoMod + " replaces no staging module")
	}
	return mods, sc.Err()
}

// goRun runs the go command in dir, its output going to log.
func goRun(log io.Writer, dir string, args ...string) error {
	fmt.Fprintf(log, "controlplane: (cd %s && go %s)\n", dir, strings.Join(args, " "))
	cmd := goCommand(dir, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s in %s: %w", strings.Join(args, " "), dir, err)
	}
	return nil
}

// goCommand is the go command in dir, module mode, with the local
// toolchain (cgo as the toolchain defaults: off where no C compiler is).
func goCommand(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOWORK=off")
	return cmd
}
