package store_test

import (
	"context"
	"testing"
	"time"

	"lk/store"
)

func TestActsContract(t *testing.T) {
	ctx := context.Background()
	forEach(t, implementations[store.Acts](t, "order-acts", store.OpenFileActs, store.NewMemoryActs(time.Now)), func(t *testing.T, a store.Acts) {
		// The values the handlers write: the action, when, and where a moved
		// booking went.
		mine, theirs := "a1b2c3:glk-100003", "d4e5f6:glk-100003"
		if got, err := a.Recall(ctx, mine); got != "" || err != nil {
			t.Fatalf("nothing done: %q %v", got, err)
		}
		if err := a.Record(ctx, mine, "cancel:1795000000", time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, err := a.Recall(ctx, mine); got != "cancel:1795000000" || err != nil {
			t.Errorf("recorded: %q %v", got, err)
		}
		if got, _ := a.Recall(ctx, theirs); got != "" {
			t.Errorf("another customer's key has %q", got)
		}
		if err := a.Record(ctx, mine, "transfer:1795000100:100099", time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, _ := a.Recall(ctx, mine); got != "transfer:1795000100:100099" {
			t.Errorf("a later act does not replace the first: %q", got)
		}
		if err := a.Record(ctx, "a1b2c3:aqua-1", "refund:1", time.Now().Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		if got, _ := a.Recall(ctx, "a1b2c3:aqua-1"); got != "" {
			t.Errorf("an expired act %q", got)
		}
		for _, bad := range []string{"", "cancel 1"} {
			if err := a.Record(ctx, "a1b2c3:aqua-2", bad, time.Now().Add(time.Hour)); err == nil {
				t.Errorf("record %q taken", bad)
			}
		}
	})
}

// What a customer saw done is still known after a restart.
func TestFileActsSurviveRestart(t *testing.T) {
	ctx := context.Background()
	path := tempFile(t, "order-acts")
	a, err := store.OpenFileActs(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Record(ctx, "a1:pavilion-200001", "refund:1795000000", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if a, err = store.OpenFileActs(path, time.Now); err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got, _ := a.Recall(ctx, "a1:pavilion-200001"); got != "refund:1795000000" {
		t.Errorf("after the restart: %q", got)
	}
}
