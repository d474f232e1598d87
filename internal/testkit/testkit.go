// Package testkit holds what the tests of several packages share: a clock
// the test moves by hand, a buffer the code under test writes its log to
// while the test reads it, a program's run function started and stopped
// as its main would, and the QR codes a PDF shows.
package testkit

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Now is the tests' today: the instant LK_TEST_NOW names (RFC 3339, such as
// 2026-12-31T23:59:00+03:00) when it is set, so that the tests that depend
// on the day run on any day chosen (make test-days); else the real clock.
// The app under test, the sandbox and the expected values all start from
// it.
func Now() time.Time {
	at, err := testNow()
	if err != nil {
		panic(err)
	}
	if at.IsZero() {
		return time.Now()
	}
	return at
}

var testNow = sync.OnceValues(func() (time.Time, error) {
	v := os.Getenv("LK_TEST_NOW")
	if v == "" {
		return time.Time{}, nil
	}
	at, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("LK_TEST_NOW: %q is not an instant such as 2026-12-31T23:59:00+03:00", v)
	}
	return at, nil
})

// Clock stands still at its time until the test moves it; the code under
// test may read it from any goroutine meanwhile.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Buffer is a bytes.Buffer that one goroutine may write while another
// reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Start runs run, a program's run function, in the background with its
// log written to log, and returns once ready says the log shows the
// program serving. stop cancels run's context, as a signal would, and
// fails the test unless run then returns without an error.
func Start(t testing.TB, run func(ctx context.Context, out io.Writer) error, ready func(log string) bool) (log *Buffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log = &Buffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, log) }()
	for deadline := time.Now().Add(20 * time.Second); !ready(log.String()); {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("never ready:\n%s", log.String())
		}
		select {
		case err := <-done:
			t.Fatalf("run ended: %v\n%s", err, log.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	stop = func() {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("shutdown: %v", err)
			}
		case <-time.After(3 * time.Minute): // a shutdown waits for uploads in flight up to about 2.5 minutes
			t.Fatal("no graceful shutdown")
		}
	}
	return log, stop
}

// PDFCodes are the QR codes on every page of pdf, as zbarimg reads them
// from the pages pdftoppm renders, sorted (zbarimg lists a page's codes in
// no fixed order); nil, said in the test's log, when either tool is not
// installed. A PDF with no code fails the test.
func PDFCodes(t testing.TB, pdf []byte) []string {
	t.Helper()
	zbar, err1 := exec.LookPath("zbarimg")
	pdftoppm, err2 := exec.LookPath("pdftoppm")
	if err1 != nil || err2 != nil {
		t.Log("zbarimg or pdftoppm not installed: the PDF's codes are not read")
		return nil
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "codes.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(pdftoppm, "-r", "150", "-png", path, filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "p*.png"))
	var codes []string
	for _, p := range pages {
		out, _ := exec.Command(zbar, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", p).Output()
		codes = append(codes, strings.Fields(string(out))...)
	}
	if len(codes) == 0 {
		t.Fatalf("no QR code in the PDF's %d pages", len(pages))
	}
	slices.Sort(codes)
	return codes
}
