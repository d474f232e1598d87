// Package redistest runs a real redis-server for the tests of the packages
// that keep state in Redis: each test gets its own on a free loopback port,
// in a folder of its own that outlives a restart, stopped with the test,
// and the store on it.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

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
	port := freePort(t)
	s := &Server{t: t, port: port,
		args: append([]string{bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", t.TempDir()}, settings...)}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// StartReplica starts a replica of master with settings.
func StartReplica(t testing.TB, master *Server, settings ...string) *Server {
	t.Helper()
	return Start(t, append([]string{"--replicaof", "127.0.0.1", strconv.Itoa(master.port)}, settings...)...)
}

// MasterName is the name the Sentinels of StartSentinels watch the
// master under.
const MasterName = "lk"

// StartSentinels starts n Sentinels watching master (a quorum of
// n/2+1), quick to act: a master silent for a second is down. They learn
// the replicas and each other from the master within some seconds.
func StartSentinels(t testing.TB, master *Server, n int) []*Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is needed by these tests")
	}
	var out []*Server
	for range n {
		port := freePort(t)
		dir := t.TempDir()
		conf := filepath.Join(dir, "sentinel.conf")
		text := fmt.Sprintf("port %d\nbind 127.0.0.1\ndir %s\nsentinel monitor %s 127.0.0.1 %d %d\n"+
			"sentinel down-after-milliseconds %s 1000\nsentinel failover-timeout %s 5000\nsentinel parallel-syncs %s 1\n",
			port, dir, MasterName, master.port, n/2+1, MasterName, MasterName, MasterName)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		s := &Server{t: t, port: port, args: []string{bin, conf, "--sentinel"}}
		s.Restart()
		t.Cleanup(s.Stop)
		out = append(out, s)
	}
	return out
}

// SentinelURL is LK_REDIS_URL for a master watched by sentinels.
func SentinelURL(sentinels []*Server) string {
	var addrs []string
	for _, s := range sentinels {
		addrs = append(addrs, s.Addr())
	}
	return "redis-sentinel://" + strings.Join(addrs, ",") + "/0#" + MasterName
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

// Pause stops the server without killing it (SIGSTOP): its connections
// stay open but nothing is answered or replicated, as on a stalled
// machine. Resume lets it go on.
func (s *Server) Pause()  { _ = s.cmd.Process.Signal(syscall.SIGSTOP) }
func (s *Server) Resume() { _ = s.cmd.Process.Signal(syscall.SIGCONT) }

// WaitSentinels waits until every Sentinel knows replicas replicas of the
// master and all the other Sentinels, as it must before it can fail over.
func WaitSentinels(t testing.TB, sentinels []*Server, replicas int) {
	t.Helper()
	ctx := context.Background()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		ready := true
		for _, s := range sentinels {
			c := redis.NewSentinelClient(&redis.Options{Addr: s.Addr()})
			r, err1 := c.Replicas(ctx, MasterName).Result()
			o, err2 := c.Sentinels(ctx, MasterName).Result()
			c.Close()
			ready = ready && err1 == nil && err2 == nil && len(r) >= replicas && len(o) >= len(sentinels)-1
		}
		if ready {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the Sentinels do not know the replicas and each other")
		}
	}
}
