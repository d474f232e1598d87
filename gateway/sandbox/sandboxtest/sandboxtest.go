// Package sandboxtest reads, for tests in other packages, what the sandbox
// keeps only for tests: the codes it "sent" and the refunds it received,
// through its own routes, as the browser tests read them.
package sandboxtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"

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

func get(sb *sandbox.Sandbox, path string, v any) int {
	w := httptest.NewRecorder()
	sb.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	if json.Unmarshal(w.Body.Bytes(), v) != nil {
		return 0
	}
	return w.Code
}
