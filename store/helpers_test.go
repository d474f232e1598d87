package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"lk/store"
	"lk/store/redistest"
)

// redisServer is a real redis-server of the test's own.
type redisServer = redistest.Server

// startRedis starts a Redis without persistence; startRedisWith takes the
// persistence and other settings as redis-server's own arguments.
func startRedis(t testing.TB) *redisServer { return redistest.Start(t, redistest.Volatile...) }

func startRedisWith(t testing.TB, settings ...string) *redisServer {
	t.Helper()
	return redistest.Start(t, settings...)
}

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

// openRedis is a store on a fresh redis-server without persistence.
func openRedis(t testing.TB) (*store.Redis, *redisServer) {
	t.Helper()
	return openRedisOn(t, startRedis(t))
}

// openRedisOn is a store on srv.
func openRedisOn(t testing.TB, srv *redisServer) (*store.Redis, *redisServer) {
	t.Helper()
	r, err := store.OpenRedis(srv.URL(), nil)
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
