package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"lk/store"
	"lk/store/redistest"
)

// A Redis that asks for a password: the URL without one is refused, the
// password given apart (LK_REDIS_PASSWORD_FILE) is let in and keeps what it
// is given.
func TestRedisPasswordGivenApart(t *testing.T) {
	srv := redistest.Start(t, append([]string{"--requirepass", "s3cret pass"}, redistest.Durable...)...)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	without, err := store.OpenRedis(srv.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer without.Close()
	if err := without.Ping(ctx); err == nil {
		t.Error("a Redis that asks for a password answered a client without one")
	}
	r, err := store.OpenRedis(srv.URL(), nil, store.RedisPassword("s3cret pass"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Ping(ctx); err != nil {
		t.Fatalf("with the password: %v", err)
	}
	if err := r.Revoke(ctx, "session-1", time.Now().Add(time.Hour)); err != nil {
		t.Errorf("a sign-out with the password: %v", err)
	}
}

// The Sentinels' own password and TLS are said in go-redis's URL form,
// which needs its master's name.
func TestRedisSentinelURLForms(t *testing.T) {
	for _, u := range []string{
		"redis://sentinel-user:sentinel-pass@127.0.0.1:26379/2?master_name=mymaster&addr=127.0.0.1:26380",
		"rediss://127.0.0.1:26379/0?master_name=mymaster",
		"redis-sentinel://pass@127.0.0.1:26379,127.0.0.1:26380/0#mymaster",
	} {
		r, err := store.OpenRedis(u, nil)
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		r.Close()
	}
	if _, err := store.OpenRedis("redis://127.0.0.1:26379/0?master_name=", nil); err == nil || !strings.Contains(err.Error(), "LK_REDIS_URL") {
		t.Errorf("an empty master name: %v", err)
	}
}
