package main

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"lk/internal/testkit"
	"lk/store/redistest"
)

// Whatever a log line carries, a whole phone leaves the process masked:
// in a message, in a string, in an error (a Redis key in it), and however
// the number is spelt (7…, 8…, 9…); other numbers stay as they are.
func TestLogMasksEveryPhone(t *testing.T) {
	var out testkit.Buffer
	log := newLogger("debug", &out)
	log.Error("store failed for 79001234567", "err", errors.New(`ERR on lk:{limit}:codes:s:79001234567 and 89001234567`),
		"key", "wrong:k:9001234567", "order", "123456789", "id", "790012345678")
	got := out.String()
	if regexp.MustCompile(`9001234567\D`).MatchString(got) {
		t.Errorf("a whole phone in the log: %s", got)
	}
	for _, want := range []string{`+7 900 ***-**-67`, `"order":"123456789"`, `"id":"790012345678"`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s missing: %s", want, got)
		}
	}
}

// A build's commit (and any digest) is no phone, whatever digits it has in
// a row: the first log line carries it whole, and a phone beside it is
// still masked.
func TestLogKeepsTheCommitWhole(t *testing.T) {
	var out testkit.Buffer
	log := newLogger("info", &out)
	commit := "3fe429c138bc50a809cba79111234564a2250f7f"
	log.Info("starting", "commit", commit, "dirty", commit+"+dirty", "sum", "sha256:"+commit[8:], "phone", "79111234564")
	got := out.String()
	for _, want := range []string{`"commit":"` + commit + `"`, `"dirty":"` + commit + `+dirty"`, `"sum":"sha256:` + commit[8:] + `"`, `"phone":"+7 911 ***-**-64"`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s missing: %s", want, got)
		}
	}
}

// Redis fails a key of the code's limits (it holds the wrong kind of value) while
// the customer asks for a code: the customer is told to try later, and the
// log, which says why, holds no whole phone.
func TestRedisFailureLogsNoPhone(t *testing.T) {
	rs := redistest.Start(t, redistest.Durable...)
	addrs, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(), "LK_LOG_LEVEL": "debug",
		"LK_REDIS_URL": rs.URL(),
	})
	b, _ := sandboxBrowser(t, addrs, out.String())
	rc := redis.NewClient(&redis.Options{Addr: rs.Addr()})
	defer rc.Close()
	if err := rc.Set(context.Background(), "lk:{limit}:budget:hour", "not a sorted set", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if r := b.post("/login", url.Values{"phone": {"+7 (900) 000-00-00"}}); r != http.StatusServiceUnavailable {
		t.Errorf("a code asked for while Redis fails: %d", r)
	}
	stop()
	log := out.String()
	if !strings.Contains(log, "sign-in limits unavailable") {
		t.Fatalf("the failure is not in the log:\n%s", log)
	}
	if regexp.MustCompile(`9000000000|900\D{0,3}000\D?00\D?00`).MatchString(log) {
		t.Errorf("a whole phone in the log:\n%s", log)
	}
}
