// Package redistest runs a real redis-server for the tests of the packages
// that keep state in Redis: each test gets its own on a free loopback port,
// in a folder of its own that outlives a restart, stopped with the test,
// and the store on it.
package redistest

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

// Persistence of a test server: none (a fresh, fast Redis), or the one the
// operations manual asks for, an append-only file written to disk before
// each write is answered, and no eviction.
var (
	Volatile = []string{"--save", "", "--appendonly", "no"}
	Durable  = []string{"--save", "", "--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction"}
)

// Server is one redis-server of a test.
type Server struct {
	t    testing.TB
	port int
	args []string
	cmd  *exec.Cmd
}

// Start starts a server with settings, redis-server's own arguments (for
// example Volatile or Durable), and stops it when the test ends.
func Start(t testing.TB, settings ...string) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is needed by these tests: scripts/deps installs it (apt-get install redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &Server{t: t, port: port,
		args: append([]string{bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", t.TempDir()}, settings...)}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// Restart starts the server again on the same port, with the same settings
// and folder (a durable one reads back its file).
func (s *Server) Restart() {
	s.t.Helper()
	s.cmd = exec.Command(s.args[0], s.args[1:]...)
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	for range 200 {
		if c, err := net.Dial("tcp", s.Addr()); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatal("redis-server did not start")
}

// Stop kills the server at once (SIGKILL), as a crash would: what it has
// not written to disk by then is lost.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil && s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
}

// Addr is the server's host:port; URL is what LK_REDIS_URL would be.
func (s *Server) Addr() string { return fmt.Sprintf("127.0.0.1:%d", s.port) }
func (s *Server) URL() string  { return "redis://" + s.Addr() + "/0" }

// Open is the store on s, closed with the test, once it answers.
func (s *Server) Open() *store.Redis {
	s.t.Helper()
	r, err := store.OpenRedis(s.URL(), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { r.Close() })
	Ready(s.t, r)
	return r
}

// Ready waits until r answers again: after a restart the client's old
// connections are dead, and a durable server answers LOADING while it
// reads its file back.
func Ready(t testing.TB, r *store.Redis) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); r.Ping(context.Background()) != nil; {
		if time.Now().After(deadline) {
			t.Fatal("Redis does not answer")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
