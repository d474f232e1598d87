package store_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"lk/store"
	"lk/store/redistest"
)

// kept is what must outlive a Redis restart, written before it.
type kept struct {
	t       *testing.T
	r       *store.Redis
	day     store.Rule
	outcome store.Outcome
}

func keep(t *testing.T, r *store.Redis) *kept {
	t.Helper()
	ctx := context.Background()
	k := &kept{t: t, r: r,
		day:     store.Rule{Name: "phone_wrong", Key: "wrong:79000000000", Max: 3, Window: 24 * time.Hour},
		outcome: store.Outcome{Status: http.StatusSeeOther, Location: "/orders", Message: "Возврат успешно оформлен."},
	}
	if err := r.Revoke(ctx, "signed-out", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for range k.day.Max {
		if _, err := r.Take(ctx, time.Now(), k.day); err != nil {
			t.Fatal(err)
		}
	}
	if first, _, err := r.Claim(ctx, "done", time.Hour); !first || err != nil {
		t.Fatal(first, err)
	}
	if err := r.Settle(ctx, "done", k.outcome, time.Hour); err != nil {
		t.Fatal(err)
	}
	if first, _, err := r.Claim(ctx, "running", time.Hour); !first || err != nil {
		t.Fatal(first, err)
	}
	if err := r.Moved(ctx, "glk-1", "100", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Files().Put(ctx, "c1", "s1/aqua/300001", store.RefundFile{ID: "a", Name: "справка.pdf", Data: []byte("%PDF")}, time.Hour); err != nil {
		t.Fatal(err)
	}
	return k
}

// lost lists what of keep's writes r no longer has.
func (k *kept) lost() []string {
	k.t.Helper()
	ctx := context.Background()
	var lost []string
	if revoked, err := k.r.Revoked(ctx, "signed-out"); err != nil {
		k.t.Fatal(err)
	} else if !revoked {
		lost = append(lost, "the sign-out")
	}
	if _, err := k.r.Take(ctx, time.Now(), k.day); err == nil {
		lost = append(lost, "the sign-in limit")
	}
	if first, out, err := k.r.Claim(ctx, "done", time.Hour); err != nil {
		k.t.Fatal(err)
	} else if first || out == nil || *out != k.outcome {
		lost = append(lost, "the settled token's outcome")
	}
	if first, _, err := k.r.Claim(ctx, "running", time.Hour); err != nil {
		k.t.Fatal(err)
	} else if first {
		lost = append(lost, "the token in flight")
	}
	if first, err := k.r.First(ctx, "glk-1"); err != nil {
		k.t.Fatal(err)
	} else if first != "100" {
		lost = append(lost, "the moved booking's first id")
	}
	if files, err := k.r.Files().List(ctx, "s1/aqua/300001"); err != nil {
		k.t.Fatal(err)
	} else if len(files) != 1 {
		lost = append(lost, "the refund file")
	}
	return lost
}

// Redis run as the operations manual asks (the append-only file, flushed
// before each answer) and killed at once: everything comes back.
func TestDurableRedisKeepsStateThroughACrash(t *testing.T) {
	srv := redistest.Start(t, redistest.Durable...)
	r := srv.Open()
	k := keep(t, r)
	srv.Stop() // SIGKILL: no chance to write anything more
	srv.Restart()
	redistest.Ready(t, r)
	if lost := k.lost(); len(lost) > 0 {
		t.Errorf("lost in the restart: %s", strings.Join(lost, ", "))
	}
}

// The same with the settings the operations manual showed before (no snapshots, no
// append-only file): all is gone, a signed-out cookie opens the account
// again. This is what CheckAtStart refuses.
func TestVolatileRedisLosesStateInARestart(t *testing.T) {
	r, srv := openRedis(t)
	k := keep(t, r)
	srv.Stop()
	srv.Restart()
	redistest.Ready(t, r)
	if lost := k.lost(); len(lost) != 6 {
		t.Errorf("lost only %q: is the restart real?", lost)
	}
}

func TestPersistenceSettingsChecked(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		settings []string
		refused  string // in the error; "" when accepted
	}{
		{"durable", redistest.Durable, ""},
		{"fsync every second", []string{"--appendonly", "yes", "--appendfsync", "everysec"}, ""},
		{"no append-only file", redistest.Volatile, "appendonly is no"},
		{"snapshots only", []string{"--save", "60 1", "--appendonly", "no"}, "appendonly is no"},
		{"keys with a TTL evicted", []string{"--appendonly", "yes", "--maxmemory-policy", "volatile-lru"}, "maxmemory-policy is volatile-lru"},
		{"any key evicted", []string{"--appendonly", "yes", "--maxmemory-policy", "allkeys-lru"}, "maxmemory-policy is allkeys-lru"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := redistest.Start(t, c.settings...).Open()
			var logs bytes.Buffer
			err := r.CheckAtStart(ctx, slog.New(slog.NewJSONHandler(&logs, nil)))
			switch {
			case c.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.refused != "" && (!errors.Is(err, store.ErrNotDurable) || !strings.Contains(err.Error(), c.refused)):
				t.Errorf("error %v, want one saying %q", err, c.refused)
			case c.refused == "" && !strings.Contains(logs.String(), `"appendonly":"yes"`):
				t.Errorf("the settings are not logged: %s", logs.String())
			}
		})
	}
}

// A Redis that is down when the server starts, or refuses CONFIG (some
// managed ones do), is warned about; the server starts and waits for it.
func TestPersistenceUncheckedIsAWarning(t *testing.T) {
	ctx := context.Background()
	down, srv := openRedis(t)
	srv.Stop()
	refusing := redistest.Start(t, append(redistest.Durable, "--rename-command", "CONFIG", "")...).Open()
	for name, r := range map[string]*store.Redis{"down": down, "CONFIG refused": refusing} {
		var logs bytes.Buffer
		if err := r.CheckAtStart(ctx, slog.New(slog.NewJSONHandler(&logs, nil))); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(logs.String(), `"level":"WARN"`) || !strings.Contains(logs.String(), "not checked") && !strings.Contains(logs.String(), "cannot read") {
			t.Errorf("%s: no warning: %s", name, logs.String())
		}
	}
}

// go-redis's own messages (here: its pool failing to dial a Redis that went
// away) reach the log as JSON like every other line, and nothing else is
// written to standard output or error. go-redis's logger belongs to the
// whole process, so this runs in a process of its own: the test binary
// again, as redisClient (see TestMain).
func TestRedisMessagesAreJSON(t *testing.T) {
	srv := startRedis(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), redisClientEnv+"="+srv.URL())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	var out []string
	for lines.Scan() { // the client's first line: it has its connections
		out = append(out, lines.Text())
		if strings.Contains(lines.Text(), "connected") {
			break
		}
	}
	srv.Stop()
	stdin.Close() // go on: Redis is gone now
	for lines.Scan() {
		out = append(out, lines.Text())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("written to standard error:\n%s", stderr.String())
	}
	warned := false
	for _, line := range out {
		var l struct{ Level, Msg, Component string }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Errorf("not a JSON line on standard output: %q", line)
		}
		warned = warned || l.Level == "WARN" && l.Component == "redis" && strings.Contains(l.Msg, "dial")
	}
	if !warned {
		t.Errorf("no warning from go-redis about the lost Redis in:\n%s", strings.Join(out, "\n"))
	}
}

const redisClientEnv = "LK_TEST_REDIS_CLIENT"

// redisClient is TestRedisMessagesAreJSON's other process: it logs as the
// server does, uses Redis until its standard input closes, then goes on
// using it while it is gone.
func redisClient(url string) int {
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	store.LogRedis(log)
	r, err := store.OpenRedis(url, nil)
	if err != nil {
		log.Error("open", "err", err)
		return 1
	}
	defer r.Close()
	ctx := context.Background()
	if err := r.Ping(ctx); err != nil {
		log.Error("ping", "err", err)
		return 1
	}
	log.Info("connected")
	_, _ = io.Copy(io.Discard, os.Stdin)
	_, _ = r.Revoked(ctx, "a")
	return 0
}

func TestMain(m *testing.M) {
	if url := os.Getenv(redisClientEnv); url != "" {
		os.Exit(redisClient(url))
	}
	os.Exit(m.Run())
}

// The data folder's set keeps the confirmed numbers over a restart: a
// customer is no stranger after one.
func TestFolderKeepsConfirmedNumbers(t *testing.T) {
	ctx := context.Background()
	f := store.Folder{Dir: t.TempDir(), Now: time.Now}
	for i := range 2 {
		s, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			err = s.Numbers.Confirm(ctx, "tag", time.Now().Add(time.Hour))
		} else if ok, _ := s.Numbers.Confirmed(ctx, "tag"); !ok {
			t.Error("a confirmed number forgotten over a restart")
		}
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
}
