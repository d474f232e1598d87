package main

import (
	"bytes"
	"context"
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
