package store_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"lk/store"
	"lk/store/redistest"
)

func TestParseSentinelURL(t *testing.T) {
	o, err := store.ParseSentinelURL("redis-sentinel://s3cret@10.0.0.1:26379,10.0.0.2:26380/2#lk")
	if err != nil || o.Password != "s3cret" || o.DB != 2 || o.MasterName != "lk" ||
		strings.Join(o.SentinelAddrs, " ") != "10.0.0.1:26379 10.0.0.2:26380" {
		t.Errorf("%+v %v", o, err)
	}
	if o, err := store.ParseSentinelURL("redis-sentinel://h:26379#m"); err != nil || o.DB != 0 || o.Password != "" || o.SentinelAddrs[0] != "h:26379" {
		t.Errorf("the shortest form: %+v %v", o, err)
	}
	for _, bad := range []string{"redis-sentinel://h:26379/0", "redis-sentinel://h/0#m", "redis-sentinel://h:26379/x#m", "redis-sentinel://#m", "redis://h:6379#m"} {
		if _, err := store.ParseSentinelURL(bad); err == nil || !strings.Contains(err.Error(), "LK_REDIS_URL") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// sentinelTopology is a durable master, its replica and three Sentinels,
// and the store on them once the Sentinels know the replica.
func sentinelTopology(t *testing.T) (r *store.Redis, master, replica *redistest.Server) {
	t.Helper()
	master = redistest.Start(t, redistest.Durable...)
	replica = redistest.StartReplica(t, master, redistest.Durable...)
	sentinels := redistest.StartSentinels(t, master, 3)
	redistest.WaitSentinels(t, sentinels, 1)
	r, err := store.OpenRedis(redistest.SentinelURL(sentinels), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	redistest.Ready(t, r)
	if err := r.CheckAtStart(context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	return r, master, replica
}

// A sign-out, a used form's claim and its outcome, acknowledged just
// before the master is killed, are on the master Sentinel promotes.
func TestAcknowledgedWritesOutliveAFailover(t *testing.T) {
	r, master, _ := sentinelTopology(t)
	ctx := context.Background()
	until := time.Now().Add(time.Hour)
	if err := r.Revoke(ctx, "signed-out", until); err != nil {
		t.Fatal(err)
	}
	first, _, err := r.Claim(ctx, "form", time.Minute)
	if err != nil || !first {
		t.Fatalf("claim: %v %v", first, err)
	}
	if err := r.Settle(ctx, "form", store.Outcome{Status: 303, Location: "/orders"}, time.Hour); err != nil {
		t.Fatal(err)
	}
	claimed, _, err := r.Claim(ctx, "running", time.Minute)
	if err != nil || !claimed {
		t.Fatal(err)
	}
	master.Stop() // SIGKILL
	if err := r.Ping(ctx); err != nil {
		t.Errorf("ready during the failover: %v; want ready for some seconds, or every instance leaves the balancer at once", err)
	}

	// Sign-outs wait out the failover and land on the new master.
	start := time.Now()
	if err := r.Revoke(ctx, "during", until); err != nil {
		t.Fatalf("a sign-out during the failover: %v", err)
	}
	t.Logf("a sign-out sent at the kill was done after %s", time.Since(start).Round(100*time.Millisecond))
	for _, id := range []string{"signed-out", "during"} {
		if ok, err := r.Revoked(ctx, id); err != nil || !ok {
			t.Errorf("sign-out %s lost: %v %v", id, ok, err)
		}
	}
	if first, out, err := r.Claim(ctx, "form", time.Minute); err != nil || first || out == nil || out.Location != "/orders" {
		t.Errorf("the used form: first %v, outcome %+v, %v", first, out, err)
	}
	if first, out, err := r.Claim(ctx, "running", time.Minute); err != nil || first || out != nil {
		t.Errorf("the form at work: first %v, outcome %+v, %v; want it still claimed", first, out, err)
	}
}

// A sign-out that no replica acknowledges (the replica stalls) is not
// reported done, however long the master waited.
func TestASignOutNoReplicaHasIsNotReportedDone(t *testing.T) {
	r, _, replica := sentinelTopology(t)
	ctx := context.Background()
	replica.Pause()
	defer replica.Resume()
	err := r.Revoke(ctx, "unsure", time.Now().Add(time.Hour))
	if !errors.Is(err, store.ErrNotReplicated) {
		t.Errorf("a sign-out with the replica stalled: %v, want ErrNotReplicated", err)
	}
}
