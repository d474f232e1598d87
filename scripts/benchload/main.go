// Command benchload is the many-customers side of scripts/bench.
//
//	benchload signup -lk URL -sandbox URL -n N -out FILE
//
// signs N new customers up and in through lk (the sandbox gives each its
// own orders; each comes from an address of its own, X-Forwarded-For, so lk
// must trust loopback as a proxy) and writes one line per customer: the
// cookies, the customer's first order and the move page of their
// water-park order for one day, the same for everybody.
//
//	benchload load -lk URL -in FILE -case CASE -c 50 -d 10s
//
// loads CASE (/orders, order, move, home, mix, or any path) at c requests at
// once for d, each request as the next customer in turn, with gzip, and
// prints one line: answers, p50 ms, p99 ms, answers other than 200. mix
// opens home, the list, an order and a move page as a customer does:
// 3 : 4 : 2 : 1.
//
//	benchload burst -lk URL -in FILE -n 40
//
// opens /orders once for each of the first 40 customers at once, and
// /login 100 ms later, and prints the answers by status, the slowest 503,
// the slowest answer and /login's time.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/PuerkitoBio/goquery"

	"lk/internal/testkit"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	lk := fs.String("lk", "", "lk's base URL")
	var run func() error
	switch os.Args[1] {
	case "signup":
		sandbox := fs.String("sandbox", "", "the sandbox's base URL (its SMS outbox)")
		n := fs.Int("n", 100, "customers to sign up")
		out := fs.String("out", "", "where to write the customers")
		run = func() error { return signUp(*lk, strings.TrimSuffix(*sandbox, "/"), *n, *out) }
	case "load":
		in := fs.String("in", "", "the customers signup wrote")
		kase := fs.String("case", "/orders", "what to load: /orders, order, move, home, mix or a path")
		conc := fs.Int("c", 50, "requests at once")
		dur := fs.Duration("d", 10*time.Second, "how long")
		run = func() error { return load(*lk, *in, *kase, *conc, *dur) }
	case "burst":
		in := fs.String("in", "", "the customers signup wrote")
		n := fs.Int("n", 40, "customers opening /orders at once")
		run = func() error { return burstOrders(*lk, *in, *n) }
	default:
		usage()
	}
	if err := fs.Parse(os.Args[2:]); err != nil || *lk == "" || fs.NArg() > 0 {
		fs.Usage()
		os.Exit(2)
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchload:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: benchload signup|load|burst -lk URL [flags]; benchload MODE -h for the flags")
	os.Exit(2)
}

// customer is one signed-in customer.
type customer struct {
	Cookie string `json:"cookie"` // the Cookie header
	Order  string `json:"order"`  // the first order's page
	Move   string `json:"move"`   // the move page of the water-park order
	IP     string `json:"ip"`
}

var client = &http.Client{
	Timeout:       30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Transport:     &http.Transport{MaxIdleConnsPerHost: 512, DisableCompression: true},
}

// send makes a request as a customer with cookies jar from ip; the body is
// read whole (not compressed: it is read).
func send(method, u string, form url.Values, jar map[string]string, ip string) (int, []byte, *http.Response, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		return 0, nil, nil, err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("X-Forwarded-For", ip)
	testkit.AddCookies(req, jar)
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	testkit.KeepCookies(jar, res)
	return res.StatusCode, b, res, err
}

func signUp(lk, sandbox string, n int, out string) error {
	// A fresh range of numbers per run, spread so that no two customers share
	// all but their last four digits: the server sends at most 20 codes an
	// hour to such a block (the bench raises its service-wide SMS budget).
	phones := time.Now().UnixNano() % 10_000
	list := make([]customer, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				c, err := signUpOne(lk, sandbox, fmt.Sprintf("7903%03d%04d", i%1000, (phones+int64(i/1000))%10_000), i)
				if err != nil {
					errs <- fmt.Errorf("customer %d: %w", i, err)
					return
				}
				list[i] = c
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, c := range list {
		if err := enc.Encode(c); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func signUpOne(lk, sandbox, phone string, i int) (customer, error) {
	jar := map[string]string{}
	c := customer{IP: fmt.Sprintf("10.%d.%d.%d", 100+i/65536, i/256%256, i%256)}
	if st, _, _, err := send(http.MethodPost, lk+"/signup", url.Values{"phone": {"+" + phone}, "firstName": {"Иван"}, "lastName": {"Петров"}}, jar, c.IP); err != nil || st != http.StatusSeeOther {
		return c, fmt.Errorf("POST /signup: %d %v", st, err)
	}
	code, err := testkit.SandboxCode(sandbox, phone)
	if err != nil {
		return c, err
	}
	if st, _, _, err := send(http.MethodPost, lk+"/login/code", url.Values{"code": {code}}, jar, c.IP); err != nil || st != http.StatusSeeOther {
		return c, fmt.Errorf("POST /login/code: %d %v", st, err)
	}
	st, body, _, err := send(http.MethodGet, lk+"/orders", nil, jar, c.IP)
	if err != nil || st != http.StatusOK {
		return c, fmt.Errorf("GET /orders: %d %v", st, err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		return c, err
	}
	c.Order = doc.Find(`a[href^="/orders/"]`).First().AttrOr("href", "")
	aqua := strings.Split(doc.Find(`a[href^="/orders/aqua/"]`).First().AttrOr("href", ""), "/")
	if c.Order == "" || len(aqua) < 4 {
		return c, fmt.Errorf("no orders on /orders")
	}
	c.Move = strings.Join(aqua[:4], "/") + "/transfer?date=" + moveDay()
	var cookies []string
	for k, v := range jar {
		cookies = append(cookies, k+"="+v)
	}
	slices.Sort(cookies)
	c.Cookie = strings.Join(cookies, "; ")
	return c, nil
}

// moveDay is the day every customer's move page shows the sessions of: the
// first weekday after tomorrow at the resort (regular tickets move to
// weekdays), the same for all, as on the day of a peak.
func moveDay() string {
	loc, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		loc = time.FixedZone("MSK", 3*60*60)
	}
	d := time.Now().In(loc).AddDate(0, 0, 2)
	for d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
		d = d.AddDate(0, 0, 1)
	}
	return d.Format(time.DateOnly)
}

func readCustomers(in string) ([]customer, error) {
	f, err := os.Open(in)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var list []customer
	dec := json.NewDecoder(f)
	for {
		var c customer
		if err := dec.Decode(&c); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		list = append(list, c)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s: no customers", in)
	}
	return list, nil
}

// mix is what a customer opens, in the proportions of a visit.
var mix = []string{"home", "home", "home", "/orders", "/orders", "/orders", "/orders", "order", "order", "move"}

// path is what request number n of kase asks for as c.
func path(kase string, c customer, n int64) string {
	if kase == "mix" {
		kase = mix[n%int64(len(mix))]
	}
	switch kase {
	case "home":
		return "/"
	case "order":
		return c.Order
	case "move":
		return c.Move
	}
	return kase
}

// get is one GET as c; the status (0: no answer) and how long it took.
func get(lk, p string, c customer) (int, time.Duration) {
	start := time.Now()
	req, _ := http.NewRequest(http.MethodGet, lk+p, nil)
	req.Header.Set("Cookie", c.Cookie)
	req.Header.Set("X-Forwarded-For", c.IP)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := client.Do(req)
	if err != nil {
		return 0, time.Since(start)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, time.Since(start)
}

func load(lk, in, kase string, conc int, dur time.Duration) error {
	list, err := readCustomers(in)
	if err != nil {
		return err
	}
	var next atomic.Int64
	var mu sync.Mutex
	var took []time.Duration
	other := 0
	stop := time.Now().Add(dur)
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			var mine []time.Duration
			bad := 0
			for time.Now().Before(stop) {
				n := next.Add(1) - 1
				c := list[n%int64(len(list))]
				// The page turns with every round of the customers, so
				// each customer opens each page of the mix.
				st, d := get(lk, path(kase, c, n+n/int64(len(list))), c)
				mine = append(mine, d)
				if st != http.StatusOK {
					bad++
				}
			}
			mu.Lock()
			took, other = append(took, mine...), other+bad
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(took)
	fmt.Printf("%d %.1f %.1f %d\n", len(took), ms(quantile(took, 0.50)), ms(quantile(took, 0.99)), other)
	return nil
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(q*float64(len(d))))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func burstOrders(lk, in string, n int) error {
	list, err := readCustomers(in)
	if err != nil {
		return err
	}
	n = min(n, len(list))
	type result struct {
		status int
		took   time.Duration
	}
	results := make([]result, n)
	var login result
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			st, d := get(lk, "/orders", list[i])
			results[i] = result{st, d}
		})
	}
	wg.Go(func() {
		time.Sleep(100 * time.Millisecond)
		st, d := get(lk, "/login", customer{IP: "10.250.0.1"})
		login = result{st, d}
	})
	wg.Wait()
	by := map[int]int{}
	var slowest, slowest503 time.Duration
	for _, r := range results {
		by[r.status]++
		slowest = max(slowest, r.took)
		if r.status == http.StatusServiceUnavailable {
			slowest503 = max(slowest503, r.took)
		}
	}
	fmt.Printf("answers %v; slowest 503 %.0f ms; slowest answer %.0f ms; /login %d in %.0f ms\n",
		by, ms(slowest503), ms(slowest), login.status, ms(login.took))
	return nil
}
