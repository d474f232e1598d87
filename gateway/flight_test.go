package gateway_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
)

// gate holds every request to the provider until it is opened, so that the
// calls of a test are all in flight together whatever the machine's load.
type gate struct {
	arrived atomic.Int32
	open    chan struct{}
}

func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	g.arrived.Add(1)
	select {
	case <-g.open:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// gated is a client of a fresh sandbox whose requests wait at the gate.
func gated(t *testing.T) (*gateway.Client, *sandbox.Sandbox, *gate) {
	t.Helper()
	sb, err := sandbox.New(sandbox.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	g := &gate{open: make(chan struct{})}
	c, err := gateway.NewClient(srv.URL+"/v1", gateway.WithHTTPClient(&http.Client{Transport: g}))
	if err != nil {
		t.Fatal(err)
	}
	return c, sb, g
}

// until waits for cond, failing the test if it does not come in a long while.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
	}
}

// reads are the five order lists of the page /orders and the profile.
func reads(c *gateway.Client, guid, token string) []func(context.Context) (any, error) {
	return []func(context.Context) (any, error){
		func(ctx context.Context) (any, error) { return c.LessonOrders(ctx, guid) },
		func(ctx context.Context) (any, error) { return c.PavilionOrders(ctx, guid) },
		func(ctx context.Context) (any, error) { return c.RoomOrders(ctx, guid) },
		func(ctx context.Context) (any, error) {
			active, history, err := c.AquaOrders(ctx, guid)
			return append(active, history...), err
		},
		func(ctx context.Context) (any, error) {
			active, history, err := c.HotelOrders(ctx, guid)
			return append(active, history...), err
		},
		func(ctx context.Context) (any, error) { return c.ClientInfo(ctx, token) },
	}
}

var readPaths = []string{
	"GLK/getTimetableForCurrentClient", "Rent/getPavilionRentTimetableForCurrentClient",
	"CelRooms/getCelRoomsTimetableForCurrentClient", "aqua/getAquaOrders", "hotel/getHotelOrders",
	"auth/getClientInfo",
}

func signIn(t *testing.T, c *gateway.Client, sb *sandbox.Sandbox, phone string) string {
	t.Helper()
	ctx := context.Background()
	if err := c.Login(ctx, phone, false); err != nil {
		t.Fatal(err)
	}
	code, _ := sandboxtest.LastCode(sb, phone)
	token, err := c.LoginConfirm(ctx, phone, code)
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// Two tabs of one customer load the same page at once: the provider is
// asked once per list, and both get the same orders.
func TestSameCustomerReadsAreShared(t *testing.T) {
	c, sb, g := gated(t)
	close(g.open) // the sign-in goes through
	token := signIn(t, c, sb, sandbox.DemoPhone)
	g.open = make(chan struct{}) // nothing in flight: the sign-in is done
	g.arrived.Store(0)
	sb.Reset()

	const tabs = 3
	rs := reads(c, sandbox.DemoGUID, token)
	got := make([][]any, tabs)
	var wg sync.WaitGroup
	for tab := range tabs {
		got[tab] = make([]any, len(rs))
		for i, read := range rs {
			wg.Go(func() {
				v, err := read(context.Background())
				if err != nil {
					t.Errorf("tab %d, read %d: %v", tab, i, err)
				}
				got[tab][i] = v
			})
		}
	}
	until(t, "every tab's reads to wait together", func() bool { return gateway.Waiting(c) == tabs*len(rs) })
	close(g.open)
	wg.Wait()

	calls := sb.AllCalls()
	for _, p := range readPaths {
		if calls[p] != 1 {
			t.Errorf("%s: %d provider calls for %d tabs at once, want 1", p, calls[p], tabs)
		}
	}
	for tab := 1; tab < tabs; tab++ {
		if !reflect.DeepEqual(got[tab], got[0]) {
			t.Errorf("tab %d saw other answers than tab 0", tab)
		}
	}
	if reflect.ValueOf(got[0][3]).Len() == 0 {
		t.Error("no water-park orders: the reads proved nothing")
	}
}

// Two customers loading the same page at once are asked for apart: each
// gets only their own orders.
func TestOtherCustomersReadsAreNotShared(t *testing.T) {
	c, sb, g := gated(t)
	close(g.open)
	demo := signIn(t, c, sb, sandbox.DemoPhone)
	other := signIn(t, c, sb, sandbox.OtherPhone)
	g.open = make(chan struct{}) // nothing in flight: the sign-in is done
	g.arrived.Store(0)
	sb.Reset()

	customers := []struct{ guid, token string }{{sandbox.DemoGUID, demo}, {sandbox.OtherGUID, other}}
	aqua := make([][]gateway.AquaOrder, len(customers))
	names := make([]string, len(customers))
	var wg sync.WaitGroup
	for i, cu := range customers {
		for _, read := range reads(c, cu.guid, cu.token) {
			wg.Go(func() {
				if _, err := read(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Go(func() {
			active, history, err := c.AquaOrders(context.Background(), cu.guid)
			if err != nil {
				t.Error(err)
			}
			aqua[i] = append(active, history...)
		})
		wg.Go(func() {
			info, err := c.ClientInfo(context.Background(), cu.token)
			if err != nil {
				t.Error(err)
			}
			names[i] = info.FIO
		})
	}
	// Each customer's second water-park and profile read joins their first.
	n := len(customers) * len(readPaths)
	until(t, "each customer's reads to reach the provider", func() bool { return int(g.arrived.Load()) == n })
	close(g.open)
	wg.Wait()

	calls := sb.AllCalls()
	for _, p := range readPaths {
		if calls[p] != len(customers) {
			t.Errorf("%s: %d provider calls for %d customers at once, want one each", p, calls[p], len(customers))
		}
	}
	if names[0] != sandbox.DemoFIO || names[1] != sandbox.OtherFIO {
		t.Errorf("names %q, want %q and %q", names, sandbox.DemoFIO, sandbox.OtherFIO)
	}
	for _, o := range aqua[1] {
		for _, d := range aqua[0] {
			if o.OrderID == d.OrderID {
				t.Errorf("order %s shown to both customers", o.OrderID)
			}
		}
	}
	if len(aqua[0]) == 0 || len(aqua[1]) == 0 {
		t.Errorf("water-park orders %d and %d: the reads proved nothing", len(aqua[0]), len(aqua[1]))
	}
}

// The tab that started a shared read is closed: the other tab still gets
// its answer.
func TestSharedReadOutlivesTheFirstCaller(t *testing.T) {
	c, sb, g := gated(t)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { _, err := c.LessonOrders(ctx, sandbox.DemoGUID); first <- err }()
	until(t, "the first tab's read", func() bool { return gateway.Waiting(c) == 1 })
	second := make(chan error, 1)
	var orders []gateway.LessonOrder
	go func() {
		var err error
		orders, err = c.LessonOrders(context.Background(), sandbox.DemoGUID)
		second <- err
	}()
	until(t, "the second tab to join", func() bool { return gateway.Waiting(c) == 2 })
	cancel()
	if err := <-first; err == nil {
		t.Error("the closed tab's read did not end")
	}
	close(g.open)
	if err := <-second; err != nil || len(orders) == 0 {
		t.Errorf("the open tab: %v, %d lessons", err, len(orders))
	}
	if n := sb.AllCalls()["GLK/getTimetableForCurrentClient"]; n != 1 {
		t.Errorf("%d provider calls, want 1", n)
	}
}
