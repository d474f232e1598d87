package deploy

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"lk/store"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// TestMain removes the binary the tests share.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// lkBinary is the server as make build makes it, built once for the tests.
func lkBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "lk-deploy-test"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "lk")
		cmd := exec.Command("go", "build", "-trimpath", "-o", binPath, "lk/cmd/lk")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = &buildError{err, string(out)}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

// deployFiles are what operators copy, each with its text.
func deployFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, pattern := range []string{"Containerfile", "compose.yaml", ".env.example", "haproxy.cfg", "kubernetes/*/*.yaml", "kubernetes/*/*/*.yaml", "kubernetes/base/settings.env", "systemd/*.service"} {
		names, _ := filepath.Glob(pattern)
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			files[name] = string(b)
		}
	}
	for _, want := range []string{"Containerfile", "compose.yaml", ".env.example", "kubernetes/base/deployment.yaml", "kubernetes/base/service.yaml",
		"kubernetes/base/pdb.yaml", "kubernetes/base/secret.example.yaml", "systemd/lk.service"} {
		if _, ok := files[want]; !ok {
			t.Errorf("deploy/%s is missing", want)
		}
	}
	return files
}

// settings are the LK_ (and GOMEMLIMIT) values a file gives the server.
type settings map[string]string

// Every file names only variables lk has (lk -help lists them), HTTP
// paths it answers with 200 on the ports its settings give it, and data
// and secret files in folders the same file mounts or makes.
func TestDeployFilesNameOnlyWhatTheBinaryHas(t *testing.T) {
	bin := lkBinary(t)
	help, err := exec.Command(bin, "-help").Output()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, n := range regexp.MustCompile(`\bLK_[A-Z0-9_]+\b`).FindAllString(string(help), -1) {
		known[n] = true
	}
	files := deployFiles(t)
	var httpPaths []string // on the public port
	for name, text := range files {
		for _, n := range regexp.MustCompile(`\bLK_[A-Z][A-Z0-9_]*\b`).FindAllString(text, -1) {
			if !known[n] {
				t.Errorf("%s names %s, which lk -help does not list", name, n)
			}
		}
		for _, m := range regexp.MustCompile(`-healthcheck",? "?http://127\.0\.0\.1:(\d+)(/[a-z]+)`).FindAllStringSubmatch(text, -1) {
			httpPaths = append(httpPaths, m[2])
			if m[1] != "8080" {
				t.Errorf("%s: the health check asks port %s; LK_ADDR is :8080", name, m[1])
			}
		}
	}

	// The image: its binary, user, port and data folder.
	cf := files["Containerfile"]
	for _, want := range []string{"COPY lk /lk", `ENTRYPOINT ["/lk"]`, `CMD ["/lk", "-healthcheck", "auto"]`, "org.opencontainers.image.version=", "COPY licenses/", "ENV LK_ADDR=:8080 LK_DATA_DIR=/data", "VOLUME /data", "EXPOSE 8080",
		"COPY --chown=65532:65532 data/ /data/", "USER 65532:65532"} {
		if !strings.Contains(cf, want) {
			t.Errorf("Containerfile lacks %q", want)
		}
	}

	// HAProxy checks lk's /readyz on lk's port.
	hc := files["haproxy.cfg"]
	if m := regexp.MustCompile(`option httpchk GET (/\S+)`).FindStringSubmatch(hc); m == nil {
		t.Error("haproxy.cfg checks nothing")
	} else {
		httpPaths = append(httpPaths, m[1])
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*server (\S+) (\S+):(\d+)`).FindAllStringSubmatch(hc, -1) {
		if m[3] != "8080" {
			t.Errorf("haproxy.cfg sends %s to port %s; LK_ADDR is :8080", m[1], m[3])
		}
	}

	// compose: each instance's data folder is a volume, its keys file a secret.
	var compose struct {
		Services map[string]struct {
			Image       string
			Environment settings
			Volumes     []string
			Secrets     []string
			StopGrace   string `yaml:"stop_grace_period"`
			Healthcheck struct{ Test []string }
			DependsOn   map[string]struct{ Condition string } `yaml:"depends_on"`
		}
		Secrets map[string]any
	}
	if err := yaml.Unmarshal([]byte(files["compose.yaml"]), &compose); err != nil {
		t.Fatal(err)
	}
	instances := 0
	for name, s := range compose.Services {
		if s.Environment["LK_ADDR"] == "" {
			continue
		}
		instances++
		checkSettings(t, "compose.yaml "+name, s.Environment)
		var mounts []string
		for _, v := range s.Volumes {
			parts := strings.Split(v, ":")
			mounts = append(mounts, parts[1])
		}
		for _, sec := range s.Secrets {
			if compose.Secrets[sec] == nil {
				t.Errorf("compose.yaml %s: secret %s is not defined", name, sec)
			}
			mounts = append(mounts, "/run/secrets/"+sec)
		}
		checkPaths(t, "compose.yaml "+name, s.Environment, mounts)
		if s.StopGrace == "" || dur(t, s.StopGrace) <= dur(t, s.Environment["LK_SHUTDOWN_DRAIN"])+dur(t, s.Environment["LK_SHUTDOWN_TIMEOUT"]) {
			t.Errorf("compose.yaml %s: stop_grace_period %q is not above the drain plus the shutdown timeout", name, s.StopGrace)
		}
	}
	if instances < 2 {
		t.Errorf("compose.yaml runs %d instances of lk, want 2", instances)
	}
	// Every service but the balancer has a health check, and every service
	// waits for what it needs to be healthy, not merely started.
	for name, s := range compose.Services {
		if name != "haproxy" && len(s.Healthcheck.Test) == 0 {
			t.Errorf("compose.yaml %s has no healthcheck", name)
		}
		for dep, d := range s.DependsOn {
			if d.Condition != "service_healthy" || len(compose.Services[dep].Healthcheck.Test) == 0 {
				t.Errorf("compose.yaml %s waits for %s to be %q, want service_healthy with a healthcheck", name, dep, d.Condition)
			}
		}
	}
	if len(compose.Services["haproxy"].DependsOn) < 2 || len(compose.Services["lk1"].DependsOn) == 0 {
		t.Error("compose.yaml: the balancer must wait for the instances, the instances for Redis")
	}
	// .env.example sets every value compose.yaml requires.
	example := files[".env.example"]
	for _, m := range regexp.MustCompile(`\$\{([A-Z_]+):\?`).FindAllStringSubmatch(files["compose.yaml"], -1) {
		if !regexp.MustCompile(`(?m)^` + m[1] + `=\S`).MatchString(example) {
			t.Errorf(".env.example does not set %s, which compose.yaml requires", m[1])
		}
	}
	if !strings.Contains(files["compose.yaml"], "--appendonly") || !strings.Contains(files["compose.yaml"], "noeviction") {
		t.Error("compose.yaml's Redis would lose sign-outs: it needs --appendonly yes and noeviction")
	}

	// Kubernetes, as every overlay renders it: probes on lk's port by name,
	// the grace period above preStop, the drain and the shutdown,
	// GOMEMLIMIT under the limit.
	for _, dir := range overlays(t) {
		objs, ok := rendered(t, dir)
		if !ok {
			t.Log("kubectl is not installed: the Kubernetes kit is not checked")
			break
		}
		checkDeployment(t, dir, objs, &httpPaths)
	}
	if !strings.Contains(files["kubernetes/base/service.yaml"], "targetPort: http") {
		t.Error("service.yaml does not send to the container's port http")
	}
	for _, key := range []string{"cookie-keys", "debug-token", "gateway-key"} {
		if !strings.Contains(files["kubernetes/base/secret.example.yaml"], key+":") {
			t.Errorf("secret.example.yaml lacks %s, which deployment.yaml reads", key)
		}
	}

	// systemd: the data folder is the StateDirectory, the keys a credential.
	unit := files["systemd/lk.service"]
	env := settings{}
	for _, m := range regexp.MustCompile(`(?m)^Environment=(LK_[A-Z_]+)=(\S+)`).FindAllStringSubmatch(unit, -1) {
		env[m[1]] = m[2]
	}
	if !strings.Contains(unit, "\nEnvironmentFile=/etc/lk/lk.env\n") || !strings.Contains(unit, "LK_GATEWAY_URL=https://") {
		t.Error("lk.service: no EnvironmentFile that its comment shows setting LK_GATEWAY_URL")
	}
	env["LK_GATEWAY_URL"] = "https://set.in.the/EnvironmentFile"
	checkSettings(t, "lk.service", env)
	state := regexp.MustCompile(`(?m)^StateDirectory=(\S+)`).FindStringSubmatch(unit)
	if state == nil || env["LK_DATA_DIR"] != "/var/lib/"+state[1] {
		t.Errorf("lk.service: LK_DATA_DIR %q is not its StateDirectory", env["LK_DATA_DIR"])
	}
	creds := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^LoadCredential=([^:]+):`).FindAllStringSubmatch(unit, -1) {
		creds["%d/"+m[1]] = true
	}
	for _, name := range []string{"LK_COOKIE_KEYS_FILE", "LK_GATEWAY_KEY_FILE"} {
		if !creds[env[name]] {
			t.Errorf("lk.service: %s %q is not one of its credentials", name, env[name])
		}
	}
	if m := regexp.MustCompile(`(?m)^TimeoutStopSec=(\S+)`).FindStringSubmatch(unit); m == nil ||
		dur(t, m[1]) <= dur(t, env["LK_SHUTDOWN_DRAIN"])+dur(t, env["LK_SHUTDOWN_TIMEOUT"]) {
		t.Error("lk.service: TimeoutStopSec is not above the drain plus the shutdown timeout")
	}

	// Every HTTP path named answers 200 on a running server.
	slices.Sort(httpPaths)
	httpPaths = slices.Compact(httpPaths)
	if len(httpPaths) < 2 {
		t.Fatalf("found only the paths %v", httpPaths)
	}
	base := serve(t, bin)
	for _, p := range httpPaths {
		res, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d from lk", p, res.StatusCode)
		}
	}
}

// checkSettings starts nothing: it asks the binary's own configuration
// check for values without hosts of this machine in them.
func checkSettings(t *testing.T, where string, env settings) {
	t.Helper()
	for _, name := range []string{"LK_ADDR", "LK_DATA_DIR"} {
		if env[name] == "" {
			t.Errorf("%s: %s is not set", where, name)
		}
	}
	if env["LK_GATEWAY_URL"] == "" || env["LK_GATEWAY_URL"] == "sandbox" {
		t.Errorf("%s: LK_GATEWAY_URL %q runs the demo data", where, env["LK_GATEWAY_URL"])
	}
	if u := env["LK_REDIS_URL"]; strings.HasPrefix(u, "redis-sentinel://") {
		if _, err := store.ParseSentinelURL(u); err != nil {
			t.Errorf("%s: %v", where, err)
		}
	}
	if env["LK_COOKIE_KEYS_FILE"] == "" && env["LK_COOKIE_KEYS"] == "" {
		t.Errorf("%s: no cookie keys: every restart would sign everyone out", where)
	}
	if env["LK_GATEWAY_KEY_FILE"] == "" {
		t.Errorf("%s: no LK_GATEWAY_KEY_FILE: the gateway's contract asks every call for the service key", where)
	}
}

// checkPaths: the data folder and every secret file lie in a folder the
// file mounts.
func checkPaths(t *testing.T, where string, env settings, mounts []string) {
	t.Helper()
	for name, v := range env {
		if name != "LK_DATA_DIR" && !strings.HasSuffix(name, "_FILE") {
			continue
		}
		ok := false
		for _, m := range mounts {
			ok = ok || v == m || strings.HasPrefix(v, m+"/") || path.Dir(v) == m
		}
		if !ok {
			t.Errorf("%s: %s=%s is in no folder it mounts (%v)", where, name, v, mounts)
		}
	}
}

func dur(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Errorf("%q is not a duration", s)
	}
	return d
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Errorf("%q is not a number", s)
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func port(t *testing.T, addr string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Errorf("%q is not host:port", addr)
	}
	return atoi(t, p)
}

// bytesOf reads Kubernetes' 256Mi and Go's 230MiB alike.
func bytesOf(t *testing.T, s string) int64 {
	t.Helper()
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"MiB", 1 << 20}, {"GiB", 1 << 30}, {"Mi", 1 << 20}, {"Gi", 1 << 30}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			return int64(atoi(t, v)) * u.n
		}
	}
	t.Errorf("%q is no size", s)
	return 0
}

// serve runs bin on the sandbox on free ports until the test ends and
// answers its base URL.
func serve(t *testing.T, bin string) string {
	t.Helper()
	addr := freeAddr(t)
	var log bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Env = []string{"LK_ADDR=" + addr, "LK_SANDBOX_ADDR=" + freeAddr(t), "LK_DATA_DIR=" + t.TempDir()}
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	base := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(base + "/healthz"); err == nil {
			res.Body.Close()
			return base
		}
		if time.Now().After(deadline) {
			t.Fatalf("lk did not start:\n%s", log.String())
		}
	}
}

// The unit passes systemd-analyze verify, with ExecStart pointed at a
// built binary (verify refuses a unit whose binary is not there).
func TestSystemdUnitVerifies(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	bin := lkBinary(t)
	unit, err := os.ReadFile("systemd/lk.service")
	if err != nil {
		t.Fatal(err)
	}
	const exec0 = "ExecStart=/usr/local/bin/lk\n"
	if !bytes.Contains(unit, []byte(exec0)) {
		t.Fatalf("lk.service does not run %s", exec0)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "lk.service")
	if err := os.WriteFile(file, bytes.Replace(unit, []byte(exec0), []byte("ExecStart="+bin+"\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("systemd-analyze", "verify", file).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	for _, want := range []string{"\nType=notify\n", "\nWatchdogSec=", "\nDocumentation="} {
		if !bytes.Contains(unit, []byte(want)) {
			t.Errorf("lk.service lacks %q", strings.TrimSpace(want))
		}
	}

	// The exposure rating docs/operations.md gives is what this systemd
	// measures (a change of the unit or of systemd's scoring shows here).
	out, err := exec.Command("systemd-analyze", "security", "--offline=true", "--no-pager", file).CombinedOutput()
	m := regexp.MustCompile(`Overall exposure level for lk\.service: (\d+\.\d)`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("systemd-analyze security: %v\n%s", err, out)
	}
	doc, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	d := regexp.MustCompile("`systemd-analyze security` rates it (\\d+\\.\\d)").FindSubmatch(doc)
	if d == nil || string(d[1]) != string(m[1]) {
		t.Errorf("systemd-analyze security rates lk.service %s; docs/operations.md says %q", m[1], d)
	}
}
