package store_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"lk/gateway/sandbox"
)

// A lesson cancelled on one instance is said to be cancelled on the other:
// its page there opens (200) saying so, and a second tab's form sent there
// is told the same.
func TestActsSharedByInstances(t *testing.T) {
	c := newCluster(t)
	owner := c.browser()
	c.signIn(owner, "79000000000", 0, 0)
	page := "/orders/glk/" + sandbox.DemoLessonCancelable
	_, first := c.do(owner, 0, http.MethodGet, page+"/cancel", nil)
	_, second := c.do(owner, 1, http.MethodGet, page+"/cancel", nil)
	m1, m2 := tokenField.FindStringSubmatch(first), tokenField.FindStringSubmatch(second)
	if m1 == nil || m2 == nil {
		t.Fatal("no cancel form")
	}
	if res, _ := c.do(owner, 0, http.MethodPost, page+"/cancel", url.Values{"token": {m1[1]}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d", res.StatusCode)
	}
	if res, body := c.do(owner, 1, http.MethodGet, page, nil); res.StatusCode != http.StatusOK || !strings.Contains(body, "Вы отменили этот заказ") {
		t.Errorf("the order's page on the other instance: %d", res.StatusCode)
	}
	if res, body := c.do(owner, 1, http.MethodPost, page+"/cancel", url.Values{"token": {m2[1]}}); res.StatusCode != http.StatusConflict || !strings.Contains(body, "Вы отменили этот заказ") {
		t.Errorf("the second tab's form on the other instance: %d", res.StatusCode)
	}
	if n := c.sb.AllCalls()["GLK/cancelRegistration"]; n != 1 {
		t.Errorf("GLK/cancelRegistration called %d times, want 1", n)
	}
}
