package store

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"
)

func TestMemoryRefundFiles(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	m := NewMemoryRefundFiles(func() time.Time { return now })
	put := func(key, id, name string, n int) error {
		_, err := m.Put(ctx, "c"+key[:2], key, RefundFile{ID: id, Name: name, Data: bytes.Repeat([]byte{byte(len(id))}, n)}, time.Hour)
		return err
	}
	if err := put("s1/aqua/1", "a", "a.pdf", 10); err != nil {
		t.Fatal(err)
	}
	// The same name and bytes again: the file already kept.
	if f, err := m.Put(ctx, "cs1", "s1/aqua/1", RefundFile{ID: "other", Name: "a.pdf", Data: bytes.Repeat([]byte{1}, 10)}, time.Hour); err != nil || f.ID != "a" {
		t.Errorf("same file again: %v %q", err, f.ID)
	}
	if l, _ := m.List(ctx, "s2/aqua/1"); len(l) != 0 {
		t.Error("another key sees the file")
	}
	for i := range 9 {
		if err := put("s1/aqua/1", string(rune('b'+i)), "f", 1+i); err != nil {
			t.Fatal(err)
		}
	}
	if err := put("s1/aqua/1", "zz", "g", 1); !errors.Is(err, ErrRefundFilesFull) {
		t.Errorf("11th file: %v", err)
	}
	if err := put("s3/aqua/1", "x", "big", RefundBytesPerKey+1); !errors.Is(err, ErrRefundFilesFull) {
		t.Errorf("over 25 MB: %v", err)
	}
	_ = m.Remove(ctx, "s1/aqua/1", "a")
	if l, _ := m.List(ctx, "s1/aqua/1"); len(l) != 9 || l[0].ID != "b" {
		t.Errorf("after remove: %d", len(l))
	}
	now = now.Add(time.Hour)
	if l, _ := m.List(ctx, "s1/aqua/1"); len(l) != 0 {
		t.Error("kept past the hour")
	}
	_ = put("s1/aqua/1", "a", "a.pdf", 10)
	_ = m.Clear(ctx, "s1/aqua/1")
	if l, _ := m.List(ctx, "s1/aqua/1"); len(l) != 0 || m.(*memoryRefundFiles).total != 0 {
		t.Error("clear left files")
	}
}
