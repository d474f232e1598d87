package handlers_test

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"lk/store"
)

// redisServer is a real redis-server of the test's own on a free loopback
// port, configured as the README's topology asks (an append-only file
// written before each write is answered), in a folder that outlives its
// restarts.
type redisServer struct {
	t    testing.TB
	args []string
	cmd  *exec.Cmd
}

func startRedis(t testing.TB) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is needed: scripts/deps installs it (apt-get install redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &redisServer{t: t, args: []string{bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", t.TempDir(),
		"--save", "", "--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction"}}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *redisServer) addr() string { return "127.0.0.1:" + s.args[2] }
func (s *redisServer) url() string  { return fmt.Sprintf("redis://%s/0", s.addr()) }

func (s *redisServer) start() {
	s.t.Helper()
	s.cmd = exec.Command(s.args[0], s.args[1:]...)
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	for range 200 {
		if c, err := net.Dial("tcp", s.addr()); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatal("redis-server did not start")
}

// stop kills the server at once (SIGKILL), as a crash would.
func (s *redisServer) stop() {
	if s.cmd != nil && s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
}

// openRedis is the shared store on srv, closed with the test.
func openRedis(t testing.TB, srv *redisServer) *store.Redis {
	t.Helper()
	r, err := store.OpenRedis(srv.url(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	waitRedis(t, r)
	return r
}

// waitRedis waits until r answers (again, after a restart).
func waitRedis(t testing.TB, r *store.Redis) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); r.Ping(context.Background()) != nil; {
		if time.Now().After(deadline) {
			t.Fatal("Redis does not answer")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
