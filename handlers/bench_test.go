package handlers_test

import (
	"context"
	"io/fs"
	"net/http"
	"path"
	"testing"
	"time"

	"lk"
	"lk/gateway"
	"lk/gateway/sandbox"
)

// BenchmarkOrdersPage shows what the server adds to the provider's latency.
// Every order list of the sandbox answers after the same delay; compare
// "one-provider-call" with "orders-page" (five calls, made in parallel) and
// "login-page" (no provider call):
//
//	go test ./handlers/ -run '^$' -bench OrdersPage -benchtime 50x
//
// A page whose calls ran one after another would take five times the call.
func BenchmarkOrdersPage(b *testing.B) {
	const delay = 20 * time.Millisecond
	a := newApp(b)
	a.signIn(a.client, demoPhone)
	lists := []string{"GLK/getTimetableForCurrentClient", "Rent/getPavilionRentTimetableForCurrentClient",
		"CelRooms/getCelRoomsTimetableForCurrentClient", "aqua/getAquaOrders", "hotel/getHotelOrders"}
	for _, p := range lists {
		a.sb.SetFault(p, sandbox.Fault{Delay: delay})
	}
	gw, err := gateway.NewClient(a.sbSrv.URL + "/v1")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("one-provider-call", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := gw.AquaOrders(context.Background(), sandbox.DemoGUID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("orders-page", func(b *testing.B) {
		for b.Loop() {
			if r := a.get("/orders"); r.StatusCode != http.StatusOK {
				b.Fatal(r.StatusCode)
			}
		}
	})
	b.Run("login-page", func(b *testing.B) {
		c := a.newClient()
		for b.Loop() {
			if r := a.getWith(c, "/login"); r.StatusCode != http.StatusOK {
				b.Fatal(r.StatusCode)
			}
		}
	})
}

// BenchmarkStaticReact is the server's work for the largest file a page with
// an island asks for, React's chunk, to a browser that takes gzip:
//
//	go test ./handlers/ -run '^$' -bench StaticReact -benchtime 200x -cpu 1
//
// Each file is compressed once, so this is the cost of sending it.
func BenchmarkStaticReact(b *testing.B) {
	a := newApp(b)
	names, _ := fs.Glob(lk.Static, "static/dist/assets/react-*.js")
	if len(names) == 0 {
		b.Skip("islands not built (run make generate)")
	}
	src := "/static/dist/assets/" + path.Base(names[0])
	for b.Loop() {
		if res, _ := a.gzipGet(src); res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" {
			b.Fatal(res.StatusCode, res.Header)
		}
	}
}
