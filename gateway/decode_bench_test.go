package gateway_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"lk/gateway"
	"lk/gateway/sandbox"
)

// BenchmarkDecodeAnswer is the client's work on one order list the sandbox
// gives the demo customer (every page decodes five such answers):
//
//	go test -run '^$' -bench DecodeAnswer -benchmem -count 6 ./gateway
func BenchmarkDecodeAnswer(b *testing.B) {
	s, err := sandbox.New(sandbox.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	res, err := http.Get(srv.URL + "/v1/aqua/getAquaOrders?userId=" + sandbox.DemoGUID)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	c, _ := gateway.NewClient(srv.URL + "/v1")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var out gateway.AquaOrdersAnswer
		if err := gateway.DecodeOK(c, body, &out); err != nil || len(out.ActiveOrders) == 0 {
			b.Fatal(err, len(body))
		}
	}
}
