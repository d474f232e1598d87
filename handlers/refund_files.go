package handlers

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"time"
)

// RefundFile is a document a customer attached to a refund: its bytes and
// the name the browser gave it. The name is only ever sent to the provider
// as file_name and shown to the same session; it is never a path.
type RefundFile struct {
	ID   string // random, for the remove button
	Name string
	Data []byte
}

// RefundFiles keeps the documents of a refund that was refused or failed,
// for one hour, so that the customer does not choose them again (DESIGN
// "Uploads"). A key is one session's refund of one order. In memory by
// default; several instances share one store.
type RefundFiles interface {
	// Put adds f under key and keeps the key for ttl from now. Putting the
	// same name and bytes again returns the file already kept. It fails
	// with ErrRefundFilesFull when the key or the store has no room left.
	Put(ctx context.Context, key string, f RefundFile, ttl time.Duration) (RefundFile, error)
	// List gives the files kept under key, in the order they were put.
	List(ctx context.Context, key string) ([]RefundFile, error)
	// Remove forgets one file; an unknown id is no error.
	Remove(ctx context.Context, key, id string) error
	// Clear forgets every file of key.
	Clear(ctx context.Context, key string) error
}

// What a key of a RefundFiles may hold, for the shared stores.
const (
	RefundFilesPerKey = refundMaxFiles
	RefundBytesPerKey = refundMaxTotal
)

// ErrRefundFilesFull is a Put that would go beyond a limit of the store.
var ErrRefundFilesFull = errors.New("handlers: refund files: no room left")

// Limits of the refund documents (DESIGN "Uploads").
const (
	refundMaxFiles    = 10
	refundMaxFileSize = 10 << 20
	refundMaxTotal    = uploadLimit // what one request may bring is what a key may keep
	refundFilesTTL    = time.Hour
	// refundMemoryTotal bounds what one instance keeps for everyone.
	refundMemoryTotal = 512 << 20
)

// memoryRefundFiles is RefundFiles for one instance.
type memoryRefundFiles struct {
	mu    sync.Mutex
	now   func() time.Time
	keys  map[string]*refundBox
	total int // bytes kept, over every key
}

type refundBox struct {
	files []RefundFile
	size  int
	until time.Time
}

// NewMemoryRefundFiles makes an in-memory RefundFiles.
func NewMemoryRefundFiles(now func() time.Time) RefundFiles {
	return &memoryRefundFiles{now: now, keys: map[string]*refundBox{}}
}

// box is key's live box, or nil; expired boxes are dropped on the way.
func (m *memoryRefundFiles) box(key string) *refundBox {
	now := m.now()
	for k, b := range m.keys {
		if !now.Before(b.until) {
			m.total -= b.size
			delete(m.keys, k)
		}
	}
	return m.keys[key]
}

func (m *memoryRefundFiles) Put(_ context.Context, key string, f RefundFile, ttl time.Duration) (RefundFile, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.box(key)
	if b == nil {
		b = &refundBox{}
	}
	if i := slices.IndexFunc(b.files, func(g RefundFile) bool { return g.Name == f.Name && bytes.Equal(g.Data, f.Data) }); i >= 0 {
		b.until = m.now().Add(ttl)
		return b.files[i], nil
	}
	if len(b.files) >= refundMaxFiles || b.size+len(f.Data) > refundMaxTotal || m.total+len(f.Data) > refundMemoryTotal {
		return RefundFile{}, ErrRefundFilesFull
	}
	f.Data = bytes.Clone(f.Data)
	b.files = append(b.files, f)
	b.size += len(f.Data)
	b.until = m.now().Add(ttl)
	m.total += len(f.Data)
	m.keys[key] = b
	return f, nil
}

func (m *memoryRefundFiles) List(_ context.Context, key string) ([]RefundFile, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.box(key); b != nil {
		return slices.Clone(b.files), nil
	}
	return nil, nil
}

func (m *memoryRefundFiles) Remove(_ context.Context, key, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.box(key)
	if b == nil {
		return nil
	}
	b.files = slices.DeleteFunc(b.files, func(f RefundFile) bool {
		if f.ID == id {
			b.size -= len(f.Data)
			m.total -= len(f.Data)
			return true
		}
		return false
	})
	if len(b.files) == 0 {
		delete(m.keys, key)
	}
	return nil
}

func (m *memoryRefundFiles) Clear(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.box(key); b != nil {
		m.total -= b.size
		delete(m.keys, key)
	}
	return nil
}
