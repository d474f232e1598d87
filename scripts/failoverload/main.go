// Command failoverload is the customers' side of scripts/failover: against
// two instances of lk on one Sentinel-managed Redis it signs customers up,
// loads their signed-in pages, signs some out and confirms their lessons
// before the Redis master is killed and others while Sentinel fails over,
// kills the master itself (SIGKILL to -master-pid) and then reports:
//
//   - seconds from the kill until a whole sign-in works again;
//   - sign-outs lost: reported done (a 303 to /login) yet the old cookie
//     opens the account afterwards, on either instance (must be 0);
//   - actions done twice: calls of the provider's confirmLesson beyond one
//     per form, every form being sent again to both instances after the
//     failover (must be 0);
//   - answers other than 200 to the signed-in pages during the failover.
//
// It exits 1 when a sign-out is lost, an action is done twice or sign-ins
// take longer than -recover-within to work again.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/PuerkitoBio/goquery"

	"lk/internal/testkit"
)

func main() {
	lks := flag.String("lk", "", "the instances' base URLs, comma-separated")
	sandbox := flag.String("sandbox", "", "the sandbox gateway's base URL (its SMS outbox and call counts)")
	masterPID := flag.Int("master-pid", 0, "the Redis master's process id, killed with SIGKILL")
	sessions := flag.Int("sessions", 8, "customers in each group (signed out before the kill, during it; a lesson confirmed before, during)")
	within := flag.Duration("recover-within", 30*time.Second, "how soon sign-ins must work again")
	flag.Parse()
	if *lks == "" || *sandbox == "" || *masterPID == 0 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	r := &run{lk: strings.Split(*lks, ","), sandbox: strings.TrimSuffix(*sandbox, "/"), phones: rand.IntN(900_000)}
	if err := r.do(*masterPID, *sessions, *within); err != nil {
		fmt.Fprintln(os.Stderr, "failoverload:", err)
		os.Exit(1)
	}
}

type run struct {
	lk      []string
	sandbox string
	phones  int          // where this run's phone numbers start
	n       atomic.Int64 // customers signed up so far
}

// customer is one signed-up customer on one instance.
type customer struct {
	base    string
	ip      string // X-Forwarded-For: each customer its own address, for the per-address code limit
	cookies map[string]string
	form    url.Values // the confirm form of the customer's lesson
	action  string     // where it posts
}

var client = &http.Client{
	Timeout:       20 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// send makes a request as c (to base, or c's instance when base is "")
// and answers the status, the Location and the body.
func (c *customer) send(method, base, path string, form url.Values) (int, string, string, error) {
	if base == "" {
		base = c.base
	}
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		return 0, "", "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("X-Forwarded-For", c.ip)
	testkit.AddCookies(req, c.cookies)
	res, err := client.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	testkit.KeepCookies(c.cookies, res)
	return res.StatusCode, res.Header.Get("Location"), string(b), err
}

// signUp registers a new customer on base and signs them in.
func (r *run) signUp(base string) (*customer, error) {
	n := r.n.Add(1)
	// Customers 10 007 numbers apart: each in a block of its own (numbers
	// that share all but the last four digits get 20 codes an hour).
	phone := fmt.Sprintf("7901%07d", (r.phones+int(n)*10_007)%10_000_000)
	c := &customer{base: base, ip: fmt.Sprintf("10.%d.%d.%d", 100+n/65536, n/256%256, n%256), cookies: map[string]string{}}
	st, _, _, err := c.send(http.MethodPost, "", "/signup", url.Values{"phone": {"+" + phone}, "firstName": {"Иван"}, "lastName": {"Петров"}})
	if err != nil || st != http.StatusSeeOther {
		return nil, fmt.Errorf("POST /signup: %d %v", st, err)
	}
	res, err := http.Get(r.sandbox + "/sandbox/sms/" + phone)
	if err != nil {
		return nil, err
	}
	var sms struct{ Code string }
	err = json.NewDecoder(res.Body).Decode(&sms)
	res.Body.Close()
	if err != nil || sms.Code == "" {
		return nil, fmt.Errorf("no code in the sandbox's outbox: %v", err)
	}
	if st, _, _, err := c.send(http.MethodPost, "", "/login/code", url.Values{"code": {sms.Code}}); err != nil || st != http.StatusSeeOther {
		return nil, fmt.Errorf("POST /login/code: %d %v", st, err)
	}
	return c, nil
}

// findConfirm finds the confirm form of the customer's lesson.
func (c *customer) findConfirm() error {
	st, _, body, err := c.send(http.MethodGet, "", "/orders", nil)
	if err != nil || st != http.StatusOK {
		return fmt.Errorf("GET /orders: %d %v", st, err)
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	href, ok := doc.Find(`a[href^="/orders/glk/"]`).First().Attr("href")
	if !ok {
		return fmt.Errorf("no lesson on /orders")
	}
	st, _, body, err = c.send(http.MethodGet, "", href, nil)
	if err != nil || st != http.StatusOK {
		return fmt.Errorf("GET %s: %d %v", href, st, err)
	}
	doc, _ = goquery.NewDocumentFromReader(strings.NewReader(body))
	form := doc.Find(`form[action$="/confirm"]`).First()
	if form.Length() == 0 {
		return fmt.Errorf("%s has no confirm form", href)
	}
	c.action, _ = form.Attr("action")
	c.form = url.Values{}
	form.Find("input[name]").Each(func(_ int, in *goquery.Selection) {
		name, _ := in.Attr("name")
		v, _ := in.Attr("value")
		c.form.Add(name, v)
	})
	return nil
}

// signOut posts /logout until the server reports it done (a 303 to
// /login), at most until deadline; done is whether it was.
func (c *customer) signOut(deadline time.Time) (done bool, refusals int) {
	saved := map[string]string{}
	for k, v := range c.cookies {
		saved[k] = v
	}
	for time.Now().Before(deadline) {
		st, loc, _, err := c.send(http.MethodPost, "", "/logout", url.Values{})
		if err == nil && st == http.StatusSeeOther && strings.HasPrefix(loc, "/login") {
			c.cookies = saved // the old cookie, to try after the failover
			return true, refusals
		}
		refusals++
		time.Sleep(500 * time.Millisecond)
	}
	c.cookies = saved
	return false, refusals
}

// confirm posts the lesson's form to base once; acted tells a 303 (done,
// or the first outcome of the same form shown again).
func (c *customer) confirm(base string) (acted bool) {
	st, _, _, err := c.send(http.MethodPost, base, c.action, c.form)
	return err == nil && st == http.StatusSeeOther
}

// tally counts answers by status ("error" for no answer).
type tally struct {
	mu sync.Mutex
	m  map[string]int
}

func (t *tally) add(k string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]int{}
	}
	t.m[k]++
}

func (t *tally) String() (total int, other int, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var parts []string
	for k, v := range t.m {
		total += v
		if k != "200" {
			other += v
			parts = append(parts, fmt.Sprintf("%d × %s", v, k))
		}
	}
	return total, other, strings.Join(parts, ", ")
}

func (r *run) do(masterPID, n int, within time.Duration) error {
	// Groups: readers load pages throughout; outBefore sign out before
	// the kill, outDuring at it; actBefore confirm before the kill,
	// actDuring at it.
	groups := map[string][]*customer{}
	for _, g := range []string{"readers", "outBefore", "outDuring", "actBefore", "actDuring"} {
		for i := range n {
			c, err := r.signUp(r.lk[i%len(r.lk)])
			if err != nil {
				return fmt.Errorf("sign-up: %w", err)
			}
			if strings.HasPrefix(g, "act") {
				if err := c.findConfirm(); err != nil {
					return err
				}
			}
			groups[g] = append(groups[g], c)
		}
	}
	calls0, err := r.confirmCalls()
	if err != nil {
		return err
	}

	// The readers load /orders until stop, each every 100 ms; answers are
	// counted apart before the kill, until sign-ins work again, and after.
	var phase atomic.Int32 // 0 before, 1 during, 2 after
	var tallies [3]tally
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var wg sync.WaitGroup
	for _, c := range groups["readers"] {
		c := *c
		c.cookies = maps(c.cookies)
		wg.Go(func() {
			for ctx.Err() == nil {
				p := phase.Load()
				st, loc, _, err := c.send(http.MethodGet, "", "/orders", nil)
				switch {
				case err != nil:
					tallies[p].add("no answer")
				case st == http.StatusSeeOther && strings.HasPrefix(loc, "/login"):
					tallies[p].add("303 to /login: session lost")
				default:
					tallies[p].add(fmt.Sprint(st))
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
	time.Sleep(2 * time.Second)

	var mu sync.Mutex
	type signOut struct {
		c    *customer
		done bool
	}
	var outs []signOut
	refused := 0
	for _, c := range groups["outBefore"] {
		done, ref := c.signOut(time.Now().Add(5 * time.Second))
		outs = append(outs, signOut{c, done})
		refused += ref
	}
	for _, c := range groups["actBefore"] {
		c.confirm("")
	}

	// The kill, and at once sign-outs and confirmations on both instances,
	// and the same forms of before sent to the other instance.
	if err := syscall.Kill(masterPID, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill the master: %w", err)
	}
	killed := time.Now()
	phase.Store(1)
	var at sync.WaitGroup
	for _, c := range groups["outDuring"] {
		at.Go(func() {
			done, ref := c.signOut(killed.Add(within + 10*time.Second))
			mu.Lock()
			outs = append(outs, signOut{c, done})
			refused += ref
			mu.Unlock()
		})
	}
	for i, c := range groups["actDuring"] {
		at.Go(func() { c.confirm(r.lk[(i+1)%len(r.lk)]) })
	}
	for i, c := range groups["actBefore"] {
		at.Go(func() { c.confirm(r.lk[(i+1)%len(r.lk)]) })
	}

	// A whole sign-in (a new customer: the code limits, the provider, the
	// session) until one works.
	var recovered time.Duration
	for attempt := 0; ; attempt++ {
		if _, err := r.signUp(r.lk[attempt%len(r.lk)]); err == nil {
			recovered = time.Since(killed)
			break
		}
		if time.Since(killed) > within+10*time.Second {
			recovered = -1
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	phase.Store(2)
	at.Wait()
	time.Sleep(3 * time.Second)
	stop()
	wg.Wait()

	// Every form once more on every instance, now that Redis is back.
	forms := append(groups["actBefore"], groups["actDuring"]...)
	for _, c := range forms {
		for _, base := range r.lk {
			c.confirm(base)
		}
	}
	calls, err := r.confirmCalls()
	if err != nil {
		return err
	}
	twice := max(calls-calls0-len(forms), 0)

	lost, notDone := 0, 0
	for _, o := range outs {
		if !o.done {
			notDone++
			continue
		}
		for _, base := range r.lk {
			if st, _, _, err := o.c.send(http.MethodGet, base, "/orders", nil); err != nil || st == http.StatusOK {
				lost++
			}
		}
	}

	fmt.Printf("killed the Redis master (SIGKILL) with %d readers loading /orders on %d instances\n", n, len(r.lk))
	if recovered < 0 {
		fmt.Printf("sign-ins working again:           not within %s\n", within+10*time.Second)
	} else {
		fmt.Printf("sign-ins working again after:     %.1f s\n", recovered.Seconds())
	}
	fmt.Printf("sign-outs reported done:          %d of %d (%d refusals on the way, each 'try later' with the cookie kept; %d never done)\n", len(outs)-notDone, len(outs), refused, notDone)
	fmt.Printf("sign-outs lost:                   %d\n", lost)
	fmt.Printf("lessons confirmed:                %d calls of the provider for %d forms, each form sent %d or %d times to the instances\n", calls-calls0, len(forms), 1+len(r.lk), 2+len(r.lk))
	fmt.Printf("actions done twice:               %d\n", twice)
	for i, name := range []string{"before the kill", "during the failover", "after"} {
		total, other, text := tallies[i].String()
		if text == "" {
			text = "-"
		}
		fmt.Printf("/orders %-20s %5d answers, %4d other than 200: %s\n", name+":", total, other, text)
	}
	switch {
	case lost > 0:
		return fmt.Errorf("FAILED: %d sign-outs lost", lost)
	case twice > 0:
		return fmt.Errorf("FAILED: %d actions done twice", twice)
	case recovered < 0 || recovered > within:
		return fmt.Errorf("FAILED: sign-ins did not work again within %s", within)
	}
	return nil
}

func maps(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// confirmCalls is how often the provider was asked to confirm a lesson.
func (r *run) confirmCalls() (int, error) {
	res, err := http.Get(r.sandbox + "/sandbox/calls")
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	var calls map[string]int
	if err := json.NewDecoder(res.Body).Decode(&calls); err != nil {
		return 0, err
	}
	return calls["GLK/confirmLesson"], nil
}
