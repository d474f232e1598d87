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
// port and in a folder of its own; it stops with the test.
type redisServer struct {
	t    testing.TB
	port int
	cmd  *exec.Cmd
}

// Persistence of the test servers: none (what most tests need: a fresh,
// fast Redis), and the one the README's topology asks for, an append-only
// file written to disk before each write is answered.
var (
	volatileRedis = []string{"--save", "", "--appendonly", "no"}
	durableRedis  = []string{"--save", "", "--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction"}
)

// startRedis starts a Redis without persistence; startRedisWith takes the
// persistence and other settings as redis-server's own arguments.
func startRedis(t testing.TB) *redisServer { return startRedisWith(t, volatileRedis...) }

func startRedisWith(t testing.TB, settings ...string) *redisServer {
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
	// The folder outlives a restart, so a durable server reads back its file.
	args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", t.TempDir()}, settings...)
	s.cmd = exec.Command(bin, args...)
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

// stop kills the server at once (SIGKILL), as a crash would: what it has
// not written to disk by then is lost.
func (s *redisServer) stop() {
	if s.cmd.Process != nil && s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
}

// restart brings the same server back on the same port, with the same
// settings and folder.
func (s *redisServer) restart() { s.start(s.cmd.Path) }

// ready waits until r answers again after a restart.
func ready(t testing.TB, r *store.Redis) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for r.Ping(context.Background()) != nil {
		if time.Now().After(deadline) {
			t.Fatal("Redis did not answer after its restart")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *redisServer) addr() string { return fmt.Sprintf("127.0.0.1:%d", s.port) }
func (s *redisServer) url() string  { return "redis://" + s.addr() + "/0" }

// openRedis is a store on a fresh redis-server without persistence.
func openRedis(t testing.TB) (*store.Redis, *redisServer) {
	t.Helper()
	return openRedisOn(t, startRedis(t))
}

// openRedisOn is a store on srv.
func openRedisOn(t testing.TB, srv *redisServer) (*store.Redis, *redisServer) {
	t.Helper()
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
