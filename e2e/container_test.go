package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// lockedDown are the podman run flags every container test uses: no
// network, the KRM spec's nobody, a read-only root file system.
var lockedDown = []string{"--network", "none", "--user", "65534", "--read-only"}

// podmanSetup is podman's environment for the tests, made once: the
// project's containers.conf (runc, lowered rlimits) and a storage of the
// test run's own, into which the image is loaded.
var podmanSetup struct {
	once   sync.Once
	env    []string
	failed string
}

// podmanEnv returns the environment under which podman, and kpt and the
// docker CLI through it, see the loaded image; the storage is the test
// binary's own (vfs, below binDir, removed with it), so the tests neither
// see nor leave images in the machine's.
func podmanEnv(t *testing.T) []string {
	t.Helper()
	requireTool(t, "podman")
	requireTool(t, "runc")
	archive := imageArchive(t)
	podmanSetup.once.Do(func() {
		conf, err := filepath.Abs("../hack/podman/containers.conf")
		if err != nil {
			podmanSetup.failed = err.Error()
			return
		}
		storage := filepath.Join(binDir, "containers")
		storageConf := filepath.Join(binDir, "storage.conf")
		text := fmt.Sprintf("[storage]\ndriver = \"vfs\"\ngraphroot = %q\nrunroot = %q\n", filepath.Join(storage, "root"), filepath.Join(storage, "run"))
		if err := os.WriteFile(storageConf, []byte(text), 0o644); err != nil {
			podmanSetup.failed = err.Error()
			return
		}
		env := commandEnv(map[string]string{"CONTAINERS_CONF": conf, "CONTAINERS_STORAGE_CONF": storageConf})
		out, errOut, code := run(t, ".", env, nil, "podman", "load", "--input", archive)
		if code != 0 || !strings.Contains(out+errOut, "Loaded image: "+imageRef) {
			podmanSetup.failed = fmt.Sprintf("podman load: exit %d, want \"Loaded image: %s\":\n%s%s", code, imageRef, out, errOut)
			return
		}
		podmanSetup.env = env
	})
	if podmanSetup.env == nil {
		t.Fatal(podmanSetup.failed)
	}
	return podmanSetup.env
}

// TestImageLoadsUnderItsFullNameAndRunsLockedDownLikeTheHostBinary is
// issue 38's point 1: `podman load` names the image in full, and the
// image, run with no network, as 65534 and on a read-only root file
// system, answers an example ResourceList byte for byte as the host
// binary does.
func TestImageLoadsUnderItsFullNameAndRunsLockedDownLikeTheHostBinary(t *testing.T) {
	env := podmanEnv(t)
	input, err := os.ReadFile(filepath.Join(examplesRoot, "render-quickstart", "resourcelist.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	hostOut, _, hostCode := run(t, ".", commandEnv(nil), input, filepath.Join(binDir, "nfd-fn"))
	args := append(append([]string{"run", "--rm", "-i"}, lockedDown...), imageRef)
	imageOut, errOut, imageCode := run(t, ".", env, input, "podman", args...)
	if imageCode != hostCode {
		t.Errorf("the image's nfd-fn exited %d, the host's %d\nstderr:\n%s", imageCode, hostCode, errOut)
	}
	if imageOut != hostOut {
		t.Errorf("the image's output differs from the host binary's:\n%s", cmp.Diff(hostOut, imageOut))
	}
}

// TestImageDiscoversAMountedHostAsTheHostBinaryDoes is issue 38's point 1
// (discover): nfd-fn discover in the locked-down container over the host's
// /sys, /proc, /etc, /usr, /lib and /boot mounted read-only under /host
// gives the NodeFeature the native binary gives, run as the same user, on
// the same host.
func TestImageDiscoversAMountedHostAsTheHostBinaryDoes(t *testing.T) {
	env := podmanEnv(t)
	args := append([]string{"run", "--rm"}, lockedDown...)
	for _, dir := range []string{"sys", "proc", "etc", "usr", "lib", "boot"} {
		if _, err := os.Stat("/" + dir); err == nil {
			args = append(args, "--volume", "/"+dir+":/host/"+dir+":ro")
		}
	}
	args = append(args, imageRef, "discover", "--host-root", "/host", "--node-name", "container-host")
	imageOut, imageErr, imageCode := run(t, ".", env, nil, "podman", args...)

	native := []string{filepath.Join(binDir, "nfd-fn"), "discover", "--node-name", "container-host"}
	if os.Geteuid() == 0 {
		// As the container's user, so that both read what nobody may.
		native = append([]string{requireTool(t, "setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups"}, native...)
	}
	hostOut, hostErr, hostCode := run(t, os.TempDir(), commandEnv(nil), nil, native[0], native[1:]...)
	if imageCode != 0 || hostCode != 0 {
		t.Fatalf("discover: the image exited %d, the host binary %d\nimage:\n%s\nhost:\n%s", imageCode, hostCode, imageErr, hostErr)
	}
	if !strings.Contains(hostOut, "kind: NodeFeature") {
		t.Fatalf("the host binary discovered no NodeFeature:\n%s", hostOut)
	}
	if imageOut != hostOut {
		t.Errorf("discover in the container differs from the host binary's:\n%s", cmp.Diff(hostOut, imageOut))
	}
	if strings.Count(imageErr, "\n") != strings.Count(hostErr, "\n") {
		t.Errorf("the container warns otherwise than the host binary:\nimage:\n%s\nhost:\n%s", imageErr, hostErr)
	}
}

// imagePackage copies the example gpu-sriov-pool twice under a temporary
// directory: as it is (exec: nfd-fn), and with its mutator turned into the
// image. It returns the directory and the two packages' names.
func imagePackage(t *testing.T) (work, execPkg, imagePkg string) {
	t.Helper()
	work = t.TempDir()
	execPkg, imagePkg = "exec-pkg", "image-pkg"
	for _, name := range []string{execPkg, imagePkg} {
		copyPath(t, filepath.Join(examplesRoot, "gpu-sriov-pool"), filepath.Join(work, name))
	}
	edit(t, filepath.Join(work, imagePkg, "Kptfile"), "- exec: nfd-fn", "- image: "+imageRef)
	return work, execPkg, imagePkg
}

// TestImageUnderKptMatchesExec is issue 38's point 1 (kpt): `kpt fn
// render` with `image:` in the Kptfile and `kpt fn eval --image`, both
// under podman (KPT_FN_RUNTIME=podman), leave the package as the same
// function run with exec does.
func TestImageUnderKptMatchesExec(t *testing.T) {
	kpt := requireTool(t, "kpt")
	env := append(podmanEnv(t), "KPT_FN_RUNTIME=podman")

	work, execPkg, imagePkg := imagePackage(t)
	for _, args := range [][]string{{"fn", "render", execPkg, "--allow-exec"}, {"fn", "render", imagePkg}} {
		if _, errOut, code := run(t, work, env, nil, kpt, args...); code != 0 {
			t.Fatalf("kpt %v: exit %d\n%s", args, code, errOut)
		}
	}
	sameTree(t, filepath.Join(work, execPkg), filepath.Join(work, imagePkg), "Kptfile")

	work, execPkg, imagePkg = imagePackage(t)
	config := filepath.Join(execPkg, "nfd-fn-config.yaml")
	for _, args := range [][]string{
		{"fn", "eval", execPkg, "--exec", "nfd-fn", "--fn-config", config},
		{"fn", "eval", imagePkg, "--image", imageRef, "--fn-config", config},
	} {
		if _, errOut, code := run(t, work, env, nil, kpt, args...); code != 0 {
			t.Fatalf("kpt %v: exit %d\n%s", args, code, errOut)
		}
	}
	sameTree(t, filepath.Join(work, execPkg), filepath.Join(work, imagePkg), "Kptfile")
}

// TestImageAsKustomizeContainerFunctionMatchesExec is issue 38's point 1
// (kustomize): the transformer as `container: {image: ...}`, which
// kustomize runs with the docker CLI (here on podman's API socket),
// builds what `exec: {path: nfd-fn}` builds.
func TestImageAsKustomizeContainerFunctionMatchesExec(t *testing.T) {
	kustomize := requireTool(t, "kustomize")
	requireTool(t, "docker")
	env := podmanEnv(t)
	socket := podmanService(t, env)
	env = append(env, "DOCKER_HOST=unix://"+socket)

	dir := kustomizeExample(t)
	want, errOut, code := kustomizeBuild(t, kustomize, dir)
	if code != 0 {
		t.Fatalf("kustomize build with exec: exit %d\n%s", code, errOut)
	}
	edit(t, filepath.Join(dir, "nfd-fn.yaml"), "      exec:\n        path: nfd-fn\n", "      container:\n        image: "+imageRef+"\n")
	got, errOut, code := run(t, dir, env, nil, kustomize, "build", "--enable-alpha-plugins", ".")
	if code != 0 {
		t.Fatalf("kustomize build with container: exit %d\n%s", code, errOut)
	}
	if got != want {
		t.Errorf("the container function builds otherwise than exec:\n%s", cmp.Diff(want, got))
	}
}

// podmanService starts `podman system service` on a socket of the test's
// own, waits until the docker CLI gets an answer there (or the service
// exits), and stops it when the test ends; it returns the socket's path.
func podmanService(t *testing.T, env []string) string {
	t.Helper()
	socket := filepath.Join(t.TempDir(), "podman.sock")
	cmd := exec.Command("podman", "system", "service", "--time=0", "unix://"+socket)
	cmd.Env = env
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatalf("podman system service: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	probe := append(env, "DOCKER_HOST=unix://"+socket)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("podman system service exited: %v\n%s", err, errOut.String())
		default:
		}
		if _, _, code := run(t, ".", probe, nil, "docker", "version"); code == 0 {
			return socket
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sameTree fails the test unless the directories a and b hold the same
// files with the same contents, except the named files.
func sameTree(t *testing.T, a, b string, except ...string) {
	t.Helper()
	ta, tb := readTree(t, a, except), readTree(t, b, except)
	if diff := cmp.Diff(ta, tb); diff != "" {
		t.Errorf("%s and %s differ (-exec +image):\n%s", filepath.Base(a), filepath.Base(b), diff)
	}
}

// readTree reads every file below dir by its slash-separated path.
func readTree(t *testing.T, dir string, except []string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		for _, e := range except {
			if rel == e {
				return nil
			}
		}
		b, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
