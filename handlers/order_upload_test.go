package handlers_test

import (
	"bytes"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
)

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

// 40 parallel uploads of about 24 MB from one session, half to a lesson
// (which has no refund) and half to a water-park refund that takes
// documents: the lesson's are refused before their body is read, and the
// session uploads one at a time, so the process stays under 256 MB, and
// every answer is a Russian page (503 with Retry-After and the reason kept
// for the uploads turned away).
func TestUploadBurstKeepsMemoryBounded(t *testing.T) {
	runAlone(t)
	a := signedIn(t)
	lesson := "/orders/glk/" + sandbox.DemoLessonCancelable + "/refund"
	aqua := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	form := a.get(aqua).browserForm(aqua)
	form.Set("comment", "Заболел ребёнок")
	files := []upload{doc("a.pdf", 8<<20), doc("b.pdf", 8<<20), doc("c.pdf", 8<<20-4096)}
	body, ctype := multipartBody(t, form, files)
	files = nil
	runtime.GC()
	resetPeakRSS(t)
	before := peakRSS(t)

	const n = 40
	answers := make([]*resp, n)
	var wg sync.WaitGroup
	for i := range n {
		path := aqua
		if i%2 == 0 {
			path = lesson
		}
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, a.srv.URL+path, bytes.NewReader(body))
			req.Header.Set("Content-Type", ctype)
			answers[i] = a.do(a.client, req)
		})
	}
	wg.Wait()
	peak := peakRSS(t)
	t.Logf("peak RSS %d MB (%d MB before the burst)", peak>>20, before>>20)
	// The race detector's shadow memory multiplies every byte; the bound
	// holds for the program as built. The peak includes the sandbox, in
	// this process, decoding the one refund that goes through.
	if !raceEnabled && peak > 256<<20 {
		t.Errorf("peak RSS %d MB", peak>>20)
	}
	cyrillic := regexp.MustCompile(`\p{Cyrillic}{4,}`)
	statuses := map[int]int{}
	for i, r := range answers {
		if r == nil { // no answer at all (the connection reset), already reported
			t.Errorf("answer %d: none", i)
			continue
		}
		statuses[r.StatusCode]++
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") && r.StatusCode != http.StatusSeeOther {
			t.Errorf("answer %d: %d %s", i, r.StatusCode, r.Header.Get("Content-Type"))
		}
		if r.StatusCode != http.StatusSeeOther && !cyrillic.MatchString(r.text("main")) {
			t.Errorf("answer %d: %d without a Russian page: %.200q", i, r.StatusCode, r.body)
		}
		if i%2 == 0 && r.StatusCode != http.StatusNotFound {
			t.Errorf("lesson %d: %d", i, r.StatusCode)
		}
		if r.StatusCode == http.StatusServiceUnavailable {
			if r.Header.Get("Retry-After") == "" {
				t.Errorf("answer %d: 503 without Retry-After", i)
			}
			if got := r.doc.Find(`textarea[name="comment"]`).Text(); got != "Заболел ребёнок" {
				t.Errorf("answer %d: the reason typed is not kept: %q", i, got)
			}
		}
	}
	t.Logf("answers by status: %v", statuses)
	if got := a.sb.Calls("aqua/registerRefund1C"); got != 1 {
		t.Errorf("the provider was asked for %d refunds", got)
	}
}

// The room for uploads is the process's, shared by every customer: while
// one customer's refund is being sent, another's upload that does not fit
// is turned away before it is read, with 503, Retry-After and what was
// typed; once the first is done, the second goes through.
func TestUploadRoomIsShared(t *testing.T) {
	a := newAppOptions(t, nil, func(o *handlers.Options) { o.UploadBudget = 1 }, gateway.WithRetries(0))
	a.signIn(a.client, demoPhone)
	other := a.newClient()
	a.signIn(other, otherPhone)
	paid := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	first := a.get(paid).browserForm(paid)
	first.Set("comment", "Заболел ребёнок")
	orders := a.getWith(other, "/orders").doc.Find(`a[href^="/orders/aqua/"]`)
	href, _ := orders.First().Attr("href")
	if href == "" {
		t.Fatal("the second customer has no water-park order")
	}
	theirs := href + "/refund"
	second := a.getWith(other, theirs).browserForm(theirs)
	second.Set("surname", "Сидорова")

	release := make(chan struct{})
	a.sb.SetFault("aqua/registerRefund1C", sandbox.Fault{Delay: 300 * time.Millisecond, Times: 1})
	go func() {
		defer close(release)
		if r := a.postFiles(a.client, paid, first, []upload{doc("a.pdf", 1000)}); r.StatusCode != http.StatusSeeOther {
			t.Errorf("first: %d %s", r.StatusCode, r.text("main"))
		}
	}()
	for a.sb.Calls("aqua/registerRefund1C") == 0 {
		select {
		case <-release:
			t.Fatal("the first refund ended before the provider was asked")
		case <-time.After(5 * time.Millisecond):
		}
	}
	r := a.postFiles(other, theirs, second, []upload{doc("b.pdf", 1000)})
	if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || !strings.Contains(r.text(".notice-err"), "выберите файлы ещё раз") {
		t.Fatalf("second while the first runs: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	if got := r.doc.Find(`input[name="surname"]`).AttrOr("value", ""); got != "Сидорова" {
		t.Errorf("the surname typed is not kept: %q", got)
	}
	<-release
	// Let in now, it meets the refund's own rules (that customer's order
	// may want tickets chosen or a reason).
	if r := a.resubmit(other, r, theirs, nil, []upload{doc("b.pdf", 1000)}); r.StatusCode == http.StatusServiceUnavailable {
		t.Errorf("second after the first: %d %q", r.StatusCode, r.text(".notice-err"))
	}
}
