// Package deploy holds no code: its tests check what operators copy from
// this folder (the image, the compose file, the Kubernetes manifests, the
// systemd unit) against the binary they run.
package deploy

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lk"
	"lk/internal/testkit"
	"lk/views"
)

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func command(t *testing.T, name string, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, errOut.String())
	}
	return strings.TrimSpace(out.String())
}

// The image that make image builds, run from its own files: its /lk
// prints its version, then, as the image's user with the image's
// environment, serves /healthz (which the image's HEALTHCHECK asks through
// /lk -healthcheck) and a signed-in /orders on the bundled sandbox.
// Containers cannot run on every machine (no registry, no rlimits to set),
// so the image's root is mounted and entered with chroot, which needs root
// and buildah; elsewhere the test is skipped (scripts/deps image installs
// buildah).
func TestImageRunsFromItsOwnFiles(t *testing.T) {
	if _, err := exec.LookPath("buildah"); err != nil {
		t.Skip("buildah is not installed (scripts/deps image installs it)")
	}
	if os.Geteuid() != 0 {
		t.Skip("entering the image's files with chroot needs root")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "lk")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "lk/cmd/lk")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A store of its own, so the test neither sees nor leaves images in
	// the machine's.
	flags := fmt.Sprintf("--root %s/root --runroot %s/run", work, work)
	tag := "localhost/lk-image-test"
	img := exec.Command("../scripts/image")
	img.Env = append(os.Environ(), "IMAGE_BIN="+bin, "IMAGE_TAG="+tag, "IMAGE_BUILDAH_FLAGS="+flags)
	if out, err := img.CombinedOutput(); err != nil {
		t.Fatalf("scripts/image: %v\n%s", err, out)
	} else {
		t.Log(strings.TrimSpace(string(out)))
	}
	buildah := func(args ...string) string {
		return command(t, "buildah", append(append(strings.Fields(flags), "--storage-driver", "vfs"), args...)...)
	}
	ctr := buildah("from", tag)
	root := buildah("mount", ctr)
	t.Cleanup(func() { buildah("umount", ctr); buildah("rm", ctr); buildah("rmi", "--all", "--force") })

	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	version := lk.VersionOf(info)
	if v := command(t, "chroot", root, "/lk", "-version"); !strings.HasPrefix(v, "lk "+version+" ") {
		t.Errorf("/lk -version: %q, want %s", v, version)
	}
	// The licences of what ships: the Go modules' and the npm packages'.
	for _, f := range []string{"LICENSE", "go-github.com_labstack_echo_v5.txt", "go-github.com_a-h_templ.txt", "npm-react.txt", "npm-flatpickr.txt"} {
		if b, err := os.ReadFile(filepath.Join(root, "usr/share/doc/lk", f)); err != nil || !strings.Contains(string(b), "Permission") && !strings.Contains(string(b), "License") {
			t.Errorf("the image's licence notice %s: %v", f, err)
		}
	}
	type imageConfig = struct {
		Labels       map[string]string
		User         string
		Env          []string
		ExposedPorts map[string]any
		Volumes      map[string]any
		Healthcheck  struct{ Test []string }
		Entrypoint   []string
	}
	var image struct {
		Docker struct{ Config imageConfig }
	}
	if err := json.Unmarshal([]byte(buildah("inspect", "--type", "image", tag)), &image); err != nil {
		t.Fatal(err)
	}
	cfg := image.Docker.Config
	if cfg.User != "65532:65532" || cfg.ExposedPorts["8080/tcp"] == nil || cfg.Volumes["/data"] == nil ||
		strings.Join(cfg.Entrypoint, " ") != "/lk" || strings.Join(cfg.Healthcheck.Test, " ") != "CMD /lk -healthcheck auto" {
		t.Errorf("the image's configuration: %+v", cfg)
	}
	if l := cfg.Labels; l["org.opencontainers.image.version"] != version || len(l["org.opencontainers.image.revision"]) < 40 && l["org.opencontainers.image.revision"] != "unknown" ||
		l["org.opencontainers.image.source"] == "" {
		t.Errorf("the image's OCI labels: %v", l)
	}

	// The server as the image would start it, but on free ports: the
	// machine's own 8080 may be taken.
	addr, sandboxAddr := freeAddr(t), freeAddr(t)
	env := append(cfg.Env, "LK_ADDR="+addr, "LK_SANDBOX_ADDR="+sandboxAddr)
	var log bytes.Buffer
	srv := exec.Command("chroot", "--userspec", cfg.User, root, "/lk")
	srv.Env, srv.Stdout, srv.Stderr = env, &log, &log
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = srv.Process.Signal(syscall.SIGTERM)
		_ = srv.Wait()
		if t.Failed() {
			t.Logf("the server's log:\n%s", log.String())
		}
	}()
	base := "http://" + addr
	// The image's own HEALTHCHECK, in the server's environment: it finds
	// the server on the port LK_ADDR gives it, not 8080.
	health := func() error {
		c := exec.Command("chroot", append([]string{"--userspec", cfg.User, root}, cfg.Healthcheck.Test[1:]...)...)
		c.Env = env
		return c.Run()
	}
	for deadline := time.Now().Add(30 * time.Second); health() != nil; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("/lk -healthcheck never passed")
		}
	}
	b := testkit.NewBrowser(base)
	if err := b.SignIn("http://"+sandboxAddr, "79000000000"); err != nil {
		t.Fatal(err)
	}
	st, body, err := b.Get("/orders")
	if err != nil || st != http.StatusOK || !strings.Contains(body, views.DemoNotice) {
		t.Errorf("a signed-in /orders: %d %v", st, err)
	}
	// The sandbox's database went to the image's /data, as its user.
	var fi syscall.Stat_t
	if err := syscall.Stat(filepath.Join(root, "data", "lock"), &fi); err != nil || fi.Uid != 65532 {
		t.Errorf("/data/lock: uid %d, %v", fi.Uid, err)
	}
}
