package store_test

import (
	"path/filepath"
	"testing"

	"lk/store"
	"lk/store/redistest"
)

// redisServer is a real redis-server of the test's own.
type redisServer = redistest.Server

// startRedis starts a Redis without persistence.
func startRedis(t testing.TB) *redisServer { return redistest.Start(t, redistest.Volatile...) }

// openRedis is a store on a fresh redis-server without persistence.
func openRedis(t testing.TB) (*store.Redis, *redisServer) {
	t.Helper()
	srv := startRedis(t)
	return srv.Open(), srv
}

func tempFile(t testing.TB, name string) string { return filepath.Join(t.TempDir(), name) }
