package main

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// plane is an etcd and a kube-apiserver serving on 127.0.0.1 from a
// temporary directory, reached with a static bearer token of a
// system:masters user.
type plane struct {
	bin, dir   string
	url, token string
	kubeconfig string
	client     *http.Client
	mu         sync.Mutex
	procs      []*exec.Cmd
	timer      *time.Timer
}

// start starts etcd and kube-apiserver from bin and waits until the API
// server is ready and the default namespace exists. Both die with the
// calling process (SIGKILL on its death) and after lifetime at the
// latest; stop ends them earlier and removes their directory.
func start(bin string, lifetime time.Duration) (p *plane, err error) {
	dir, err := os.MkdirTemp("", "nfd-fn-controlplane-")
	if err != nil {
		return nil, err
	}
	p = &plane{bin: bin, dir: dir, token: randomHex(16),
		client: &http.Client{Transport: &http.Transport{
			// The API server's certificate is self-signed at start.
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // loopback only
		}}}
	defer func() {
		if err != nil {
			p.stop()
			p = nil
		}
	}()
	p.timer = time.AfterFunc(lifetime, p.kill)
	ports, err := freePorts(3)
	if err != nil {
		return p, err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	if err := p.spawn("etcd",
		"--name=default", "--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL, "--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=default="+peerURL, "--unsafe-no-fsync", "--log-level=warn",
	); err != nil {
		return p, err
	}
	p.url = "https://127.0.0.1:" + strconv.Itoa(ports[2])
	if err := p.writeFiles(); err != nil {
		return p, err
	}
	if err := p.spawn("kube-apiserver",
		"--etcd-servers="+etcdURL, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(ports[2]), "--cert-dir="+filepath.Join(dir, "certs"),
		"--token-auth-file="+filepath.Join(dir, "tokens.csv"), "--authorization-mode=RBAC",
		"--service-account-issuer=https://127.0.0.1", "--service-account-key-file="+filepath.Join(dir, "sa.pub"),
		"--service-account-signing-key-file="+filepath.Join(dir, "sa.key"),
		"--service-cluster-ip-range=10.0.0.0/24", "--enable-priority-and-fairness=false",
		"--profiling=false", "--v=0",
	); err != nil {
		return p, err
	}
	return p, p.waitReady()
}

// writeFiles writes the token file, the service-account key pair and a
// kubeconfig for kubectl.
func (p *plane) writeFiles() error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return err
	}
	files := map[string][]byte{
		"tokens.csv": []byte(p.token + `,nfd-fn-test,nfd-fn-test,"system:masters"` + "\n"),
		"sa.key":     pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		"sa.pub":     pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}),
	}
	p.kubeconfig = filepath.Join(p.dir, "kubeconfig")
	files["kubeconfig"] = []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: test
  cluster: {server: %q, insecure-skip-tls-verify: true}
users:
- name: test
  user: {token: %q}
contexts:
- name: test
  context: {cluster: test, user: test}
current-context: test
`, p.url, p.token))
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(p.dir, name), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// spawn starts a binary of bin with its output in dir/<name>.log.
func (p *plane) spawn(name string, args ...string) error {
	log, err := os.Create(filepath.Join(p.dir, name+".log"))
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(filepath.Join(p.bin, name), args...)
	cmd.Dir = p.dir
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", name, err)
	}
	p.procs = append(p.procs, cmd)
	go cmd.Wait() //nolint:errcheck // reaped here; exit shows in waitReady
	return nil
}

// waitReady polls /readyz, then the default namespace, until both answer
// 200: at most readyPolls polls, failing at once when a server exits.
func (p *plane) waitReady() error {
	const readyPolls = 1200 // 10 minutes at 0.5 s: only a broken start takes that long
	for _, path := range []string{"/readyz", "/api/v1/namespaces/default"} {
		for i := 0; ; i++ {
			if exited := p.exited(); exited != "" {
				return fmt.Errorf("%s exited while starting:\n%s", exited, p.logTail(exited))
			}
			if r := p.do("GET", path, "", nil); r.code == http.StatusOK {
				break
			}
			if i == readyPolls {
				return fmt.Errorf("kube-apiserver: %s not ready after %d polls:\n%s", path, readyPolls, p.logTail("kube-apiserver"))
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	return nil
}

// exited names a server that is no longer running.
func (p *plane) exited() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.procs {
		if c.Process != nil && syscall.Kill(c.Process.Pid, 0) != nil {
			return filepath.Base(c.Path)
		}
	}
	return ""
}

// logTail is the end of a server's log, for an error.
func (p *plane) logTail(name string) string {
	data, _ := os.ReadFile(filepath.Join(p.dir, name+".log"))
	if len(data) > 4000 {
		data = data[len(data)-4000:]
	}
	return string(data)
}

// kill ends the servers by their process IDs, API server first.
func (p *plane) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.procs) - 1; i >= 0; i-- {
		pid := p.procs[i].Process.Pid
		_ = syscall.Kill(pid, syscall.SIGTERM)
		for n := 0; n < 100 && syscall.Kill(pid, 0) == nil; n++ {
			time.Sleep(50 * time.Millisecond)
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	p.procs = nil
}

// stop ends the servers and removes their directory.
func (p *plane) stop() {
	if p.timer != nil {
		p.timer.Stop()
	}
	p.kill()
	_ = os.RemoveAll(p.dir)
}

// response is an API server's answer: status code, body and the
// warnings of its Warning headers.
type response struct {
	code     int
	body     []byte
	warnings []string
	err      error
}

// do sends one request to the API server.
func (p *plane) do(method, path, contentType string, body []byte) response {
	req, err := http.NewRequest(method, p.url+path, bytes.NewReader(body))
	if err != nil {
		return response{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+p.token)
	req.Header.Set("Accept", "application/json")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return response{err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return response{code: resp.StatusCode, body: data, warnings: warnings(resp.Header), err: err}
}

// warnings reads RFC 7234 Warning headers as the API server writes them:
// `299 - "text"`.
func warnings(h http.Header) []string {
	var out []string
	for _, w := range h.Values("Warning") {
		text := strings.TrimPrefix(w, `299 - `)
		if s, err := strconv.Unquote(text); err == nil {
			text = s
		}
		out = append(out, text)
	}
	return out
}

// kubectl runs the control plane's kubectl against the API server.
func (p *plane) kubectl(stdin []byte, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(filepath.Join(p.bin, "kubectl"), append([]string{"--kubeconfig=" + p.kubeconfig, "--request-timeout=5m"}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+p.dir, "KUBECACHEDIR="+filepath.Join(p.dir, "kubecache"))
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// freePorts asks the kernel for n free loopback ports.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
