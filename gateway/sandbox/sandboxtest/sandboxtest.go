// Package sandboxtest reads, for tests in other packages, what the sandbox
// keeps only for tests: the codes it "sent" and the refunds it received,
// through its own routes, as the browser tests read them.
package sandboxtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"lk/gateway/sandbox"
)

// LastCode is the last code "sent" to a phone (any notation), from the
// outbox; it stays there after use.
func LastCode(sb *sandbox.Sandbox, phone string) (code string, ok bool) {
	var sent struct {
		Code string `json:"code"`
	}
	return sent.Code, get(sb, "/sandbox/sms/"+url.PathEscape(phone), &sent) == http.StatusOK
}

// Refunds lists every refund request the sandbox received, oldest first.
func Refunds(sb *sandbox.Sandbox) []sandbox.StoredRefund {
	var list []sandbox.StoredRefund
	get(sb, "/sandbox/refunds", &list)
	return list
}

// OpenRooms frees rooms on the nights from in to out (exclusive), as a
// cancelled stay would.
func OpenRooms(sb *sandbox.Sandbox, in, out time.Time, rooms, family int) error {
	body, _ := json.Marshal(map[string]any{"in": in.Format(time.DateOnly), "out": out.Format(time.DateOnly), "rooms": rooms, "family": family})
	w := httptest.NewRecorder()
	sb.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/sandbox/open-rooms", bytes.NewReader(body)))
	if w.Code != http.StatusOK {
		return fmt.Errorf("sandbox: open rooms: %d %s", w.Code, w.Body)
	}
	return nil
}

func get(sb *sandbox.Sandbox, path string, v any) int {
	w := httptest.NewRecorder()
	sb.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	if json.Unmarshal(w.Body.Bytes(), v) != nil {
		return 0
	}
	return w.Code
}
