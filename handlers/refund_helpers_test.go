package handlers_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
	"lk/handlers"
)

// upload is a file a test chooses in a form's file input.
type upload struct {
	name string
	data []byte
}

// doc is a document with n bytes that differ from any other doc's.
func doc(name string, n int) upload {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + len(name))
	}
	copy(b, name)
	return upload{name, b}
}

func (u upload) sum() string { s := sha256.Sum256(u.data); return hex.EncodeToString(s[:]) }

// postFiles posts form as multipart/form-data to action, with files in the
// documents input; with no files it sends the empty part a browser sends
// for a file input left alone.
func (a *app) postFiles(c *http.Client, action string, form url.Values, files []upload) *resp {
	a.t.Helper()
	body, ctype := multipartBody(a.t, form, files)
	return a.postBody(c, action, ctype, body)
}

// postBody posts body, already encoded as ctype, to path.
func (a *app) postBody(c *http.Client, path, ctype string, body []byte) *resp {
	a.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	return a.do(c, req)
}

func multipartBody(t testing.TB, form url.Values, files []upload) ([]byte, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, vs := range form {
		for _, v := range vs {
			_ = w.WriteField(k, v)
		}
	}
	if len(files) == 0 {
		files = []upload{{}}
	}
	for _, f := range files {
		p, err := w.CreateFormFile("documents", f.name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = p.Write(f.data)
	}
	_ = w.Close()
	return b.Bytes(), w.FormDataContentType()
}

// submitRefund opens the refund page of kind/id as c and posts its form
// like a browser, with extra answers and files.
func (a *app) submitRefund(c *http.Client, kind, id string, extra url.Values, files []upload) *resp {
	a.t.Helper()
	action := "/orders/" + kind + "/" + id + "/refund"
	p := a.getWith(c, action)
	if p.StatusCode != http.StatusOK {
		a.t.Fatalf("GET %s: %d %s", action, p.StatusCode, p.text("main"))
	}
	return a.resubmit(c, p, action, extra, files)
}

// resubmit posts the form of page p again (the form shown after a refusal).
func (a *app) resubmit(c *http.Client, p *resp, action string, extra url.Values, files []upload) *resp {
	a.t.Helper()
	form := p.browserForm(action)
	if form.Get("token") == "" {
		a.t.Fatalf("%s: no form with a token (status %d)", action, p.StatusCode)
	}
	for k, vs := range extra {
		form[k] = vs
	}
	return a.postFiles(c, p.formAction(action), form, files)
}

// lastRefund is the last refund request the sandbox received.
func (a *app) lastRefund() sandbox.StoredRefund {
	a.t.Helper()
	list := sandboxtest.Refunds(a.sb)
	if len(list) == 0 {
		a.t.Fatal("the provider received no refund")
	}
	return list[len(list)-1]
}

// sameDocs checks that the provider got exactly files, byte for byte.
func sameDocs(t *testing.T, got []sandbox.StoredDocument, files ...upload) {
	t.Helper()
	if len(got) != len(files) {
		t.Fatalf("the provider got %d documents, want %d", len(got), len(files))
	}
	for i, f := range files {
		if got[i].Name != f.name || got[i].Size != len(f.data) || got[i].SHA256 != f.sum() {
			t.Errorf("document %d: %s %d %s, want %s %d %s", i, got[i].Name, got[i].Size, got[i].SHA256[:8], f.name, len(f.data), f.sum()[:8])
		}
	}
}

// ticketIDs are the ids of the tickets of a water-park order with status.
func (a *app) ticketIDs(guid, orderID, status string) []string {
	a.t.Helper()
	gw, err := gateway.NewClient(a.sbSrv.URL + "/v1")
	if err != nil {
		a.t.Fatal(err)
	}
	o, err := gw.AquaOrder(context.Background(), guid, orderID)
	if err != nil {
		a.t.Fatal(err)
	}
	var ids []string
	for _, t := range o.Tickets {
		if t.Status == status {
			ids = append(ids, t.ID)
		}
	}
	return ids
}

// startingOn is the provider with every order fetched starting on day off
// from today on the app's clock (its time kept): off 0 makes a refund need
// a reason and documents on our side, while the sandbox's own dates stay as
// they are.
type startingOn struct {
	handlers.Provider
	off int
	now func() time.Time
}

// newAppStartingOn is the app on a startingOn provider.
func newAppStartingOn(t *testing.T, off int) *app {
	t.Helper()
	var a *app
	a = newAppWith(t, func(p handlers.Provider) handlers.Provider {
		return startingOn{p, off, func() time.Time { return a.clock.Now() }}
	})
	return a
}

func (p startingOn) move(dt string) string {
	if len(dt) < 10 {
		return dt
	}
	return p.now().In(gateway.ResortLocation()).AddDate(0, 0, p.off).Format("02.01.2006") + dt[10:]
}

// starting moves the start of the order that read gives: at reads the
// start's field in that kind of order.
func starting[O any](p startingOn, read func(context.Context, string, string) (O, error), at func(*O) *string) func(context.Context, string, string) (O, error) {
	return func(ctx context.Context, guid, id string) (O, error) {
		o, err := read(ctx, guid, id)
		*at(&o) = p.move(*at(&o))
		return o, err
	}
}

func (p startingOn) PavilionOrder(ctx context.Context, guid, id string) (gateway.PavilionOrder, error) {
	return starting(p, p.Provider.PavilionOrder, func(o *gateway.PavilionOrder) *string { return &o.HourBeg })(ctx, guid, id)
}

func (p startingOn) RoomOrder(ctx context.Context, guid, id string) (gateway.RoomOrder, error) {
	return starting(p, p.Provider.RoomOrder, func(o *gateway.RoomOrder) *string { return &o.HourBeg })(ctx, guid, id)
}

func (p startingOn) AquaOrder(ctx context.Context, guid, id string) (gateway.AquaOrder, error) {
	return starting(p, p.Provider.AquaOrder, func(o *gateway.AquaOrder) *string { return &o.DateBeg })(ctx, guid, id)
}

func (p startingOn) HotelOrder(ctx context.Context, guid, id string) (gateway.HotelOrder, error) {
	return starting(p, p.Provider.HotelOrder, func(o *gateway.HotelOrder) *string { return &o.HourBeg })(ctx, guid, id)
}

// endlessBody is a body of n bytes sent without a Content-Length.
type endlessBody struct{ left int }

func (c *endlessBody) Read(p []byte) (int, error) {
	if c.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), c.left)
	for i := range n {
		p[i] = 'x'
	}
	c.left -= n
	return n, nil
}

// peakRSS is this process's peak resident memory (VmHWM) in bytes.
func peakRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc: ", err)
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(b)
	if m == nil {
		t.Skip("no VmHWM in /proc/self/status")
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// resetPeakRSS starts VmHWM again from the current resident memory.
func resetPeakRSS(t *testing.T) {
	t.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skip("cannot reset the peak memory: ", err)
	}
}
