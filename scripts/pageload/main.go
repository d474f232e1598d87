// Command pageload loads one page as one signed-in customer and counts what
// the customer got, for scripts/rolling-restart: each answer by status, a
// 200 whose body was cut short (the instance died while sending it), a
// request that got no answer at all, and a session lost (a 303 to /login).
// hey counts a cut body as a 200 and cannot tell where a 303 leads.
//
//	pageload -url http://127.0.0.1:22080/orders -cookie 'name=value' -c 10 -rate 20 -d 20s
//
// It prints one line per kind of answer, "COUNT KIND", most frequent first.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"
)

func main() {
	url := flag.String("url", "", "the page")
	cookie := flag.String("cookie", "", "the Cookie header")
	conns := flag.Int("c", 10, "connections, each a customer clicking in turn")
	rate := flag.Float64("rate", 20, "requests per second per connection")
	d := flag.Duration("d", 20*time.Second, "how long")
	flag.Parse()
	if *url == "" || *conns < 1 || *rate <= 0 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *d)
	defer cancel()
	counts := load(ctx, *url, *cookie, *conns, time.Duration(float64(time.Second) / *rate))
	for _, k := range sorted(counts) {
		fmt.Printf("%d %s\n", counts[k], k)
	}
}

// load requests url on conns connections, one request every interval on
// each, until ctx ends, and counts the answers by kind.
func load(ctx context.Context, url, cookie string, conns int, interval time.Duration) map[string]int {
	client := &http.Client{
		Timeout:       20 * time.Second,
		Transport:     &http.Transport{MaxIdleConnsPerHost: conns},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	var (
		mu     sync.Mutex
		counts = map[string]int{}
		wg     sync.WaitGroup
	)
	for range conns {
		wg.Go(func() {
			tick := time.NewTicker(interval)
			defer tick.Stop()
			for {
				kind := fetch(client, url, cookie)
				mu.Lock()
				counts[kind]++
				mu.Unlock()
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
			}
		})
	}
	wg.Wait()
	return counts
}

// fetch makes one request and says what came of it.
func fetch(client *http.Client, url, cookie string) string {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return "bad request: " + err.Error()
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	res, err := client.Do(req)
	if err != nil {
		return "no answer: " + reason(err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusSeeOther && res.Header.Get("Location") == "/login" {
		return "303 to /login: session lost"
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return fmt.Sprintf("%d cut short: %s", res.StatusCode, reason(err))
	}
	return fmt.Sprint(res.StatusCode)
}

// reason names a transport error in a few words, so alike ones count together.
func reason(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed"
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	}
	return err.Error()
}

// sorted is the kinds, most frequent first.
func sorted(counts map[string]int) []string {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b))
	})
	return kinds
}
