package main

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// LK_FAKE_NOW sets the clock of the date rules and of the bundled sandbox,
// for the browser tests around midnight; it is refused with a real gateway.
func TestFakeNowOnlyOnTheSandbox(t *testing.T) {
	if _, err := loadConfig(env(map[string]string{"LK_FAKE_NOW": "23:59"})); err == nil || !strings.HasPrefix(err.Error(), "LK_FAKE_NOW:") {
		t.Errorf("a bad instant: %v", err)
	}
	if _, err := loadConfig(env(map[string]string{"LK_FAKE_NOW": "2026-11-23T23:59:00+03:00", "LK_GATEWAY_URL": "https://gw.example/v1"})); err == nil || !strings.Contains(err.Error(), "LK_FAKE_NOW") {
		t.Errorf("with a real gateway: %v", err)
	}
	c, err := loadConfig(env(map[string]string{"LK_FAKE_NOW": "2026-11-23T23:59:00+03:00"}))
	if err != nil || !c.Now().Equal(time.Date(2026, 11, 23, 20, 59, 0, 0, time.UTC)) {
		t.Errorf("LK_FAKE_NOW: %v %v", c.Now(), err)
	}
	if c, _ := loadConfig(env(nil)); time.Since(c.Now()).Abs() > time.Minute {
		t.Errorf("default clock %v", c.Now())
	}
	var help bytes.Buffer
	if err := run(context.Background(), []string{"lk", "-help"}, env(nil), &help); err != nil || !strings.Contains(help.String(), "LK_FAKE_NOW") || !strings.Contains(help.String(), "for tests only") {
		t.Errorf("-help does not say LK_FAKE_NOW is for tests: %v\n%s", err, help.String())
	}

	// 23:59 in Moscow is 06:59 the next morning in Vladivostok: the sandbox
	// seeds that day (not today), on the fake clock and in the configured zone.
	_, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(),
		"LK_FAKE_NOW": "2026-01-10T23:59:00+03:00", "LK_TIMEZONE": "Asia/Vladivostok",
	})
	stop()
	if !strings.Contains(out.String(), `"day":"2026-01-11"`) {
		t.Errorf("the sandbox did not seed 11.01.2026:\n%s", out.String())
	}
}

// On a fake day a week before the real one, the demo customer signs in
// through the code page: the pending sign-in is stamped and checked on the
// one clock, and its cookie's lifetime is relative, so a browser on the
// real clock keeps it.
func TestSignInOnAFakeDayAWeekBehind(t *testing.T) {
	b := signedInAt(t, time.Now().Add(-7*24*time.Hour).Format(time.RFC3339))
	if r := b.get("/orders"); r != http.StatusOK || !strings.Contains(b.body, "Иван") {
		t.Fatalf("orders on the fake day: %d", r)
	}
}

// On 31.01.2027 a lesson moves to 28.02.2027 at the latest: a month
// ahead of the 31st ends on the next month's last day.
func TestLessonMoveWindowOnJanuary31(t *testing.T) {
	b := signedInAt(t, "2027-01-31T12:00:00+03:00")
	if r := b.get("/orders/glk/100002/transfer"); r != http.StatusOK {
		t.Fatalf("the move page: %d", r)
	}
	if !strings.Contains(b.body, `min="2027-01-31"`) || !strings.Contains(b.body, `max="2027-02-28"`) {
		t.Errorf("the day field does not offer 31.01–28.02.2027:\n%s", b.body)
	}
	if r := b.get("/orders/glk/100002/transfer?date=2027-02-28"); r != http.StatusOK || strings.Contains(b.body, "Выберите дату с") {
		t.Errorf("28.02.2027 refused: %d", r)
	}
	if r := b.get("/orders/glk/100002/transfer?date=2027-03-01"); !strings.Contains(b.body, "Выберите дату с 31.01.2027 по 28.02.2027.") {
		t.Errorf("01.03.2027 not refused with the window's dates: %d", r)
	}
}

// signedInAt is the demo customer signed in, on the bundled sandbox, on a
// server whose clock stands at now (LK_FAKE_NOW).
func signedInAt(t *testing.T, now string) *browser {
	t.Helper()
	addrs, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(), "LK_FAKE_NOW": now,
	})
	t.Cleanup(stop)
	b, sandboxURL := sandboxBrowser(t, addrs, out.String())
	if r := b.post("/login", url.Values{"phone": {"+7 (900) 000-00-00"}}); r != http.StatusSeeOther {
		t.Fatalf("POST /login: %d", r)
	}
	if r := b.post("/login/code", url.Values{"code": {sandboxCode(t, sandboxURL, "79000000000")}}); r != http.StatusSeeOther {
		t.Fatalf("POST /login/code: %d\n%s", r, b.body)
	}
	return b
}
