package handlers_test

import (
	"context"
	"testing"
	"time"

	"lk/store"
	"lk/store/redistest"
)

// redisServer is a real redis-server of the test's own, configured as the
// README's topology asks (an append-only file written before each write is
// answered), in a folder that outlives its restarts.
type redisServer = redistest.Server

func startRedis(t testing.TB) *redisServer { return redistest.Start(t, redistest.Durable...) }

// openRedis is the shared store on srv, closed with the test.
func openRedis(t testing.TB, srv *redisServer) *store.Redis {
	t.Helper()
	r, err := store.OpenRedis(srv.URL(), nil)
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
