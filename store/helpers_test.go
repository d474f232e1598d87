package store_test

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"lk/store"
)

// redisServer is a real redis-server of the test's own on a free loopback
// port, without persistence; it stops with the test.
type redisServer struct {
	t    testing.TB
	port int
	cmd  *exec.Cmd
}

func startRedis(t testing.TB) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is needed by the store tests: scripts/deps installs it (apt-get install redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &redisServer{t: t, port: port}
	s.cmd = exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir())
	s.start(bin)
	t.Cleanup(s.stop)
	return s
}

func (s *redisServer) start(bin string) {
	s.t.Helper()
	if s.cmd.Process != nil { // a restart
		s.cmd = exec.Command(bin, s.cmd.Args[1:]...)
	}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	for range 100 {
		if c, err := net.Dial("tcp", s.addr()); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatal("redis-server did not start")
}

func (s *redisServer) stop() {
	if s.cmd.Process != nil && s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
}

// restart brings the same server back on the same port.
func (s *redisServer) restart() { s.start(s.cmd.Path) }

func (s *redisServer) addr() string { return fmt.Sprintf("127.0.0.1:%d", s.port) }
func (s *redisServer) url() string  { return "redis://" + s.addr() + "/0" }

// openRedis is a store on a fresh redis-server.
func openRedis(t testing.TB) (*store.Redis, *redisServer) {
	t.Helper()
	srv := startRedis(t)
	r, err := store.OpenRedis(srv.url(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if err := r.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r, srv
}

func tempFile(t testing.TB, name string) string { return filepath.Join(t.TempDir(), name) }

