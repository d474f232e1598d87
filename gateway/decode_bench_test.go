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

// BenchmarkDecodeAnswer is the client's work on the five order lists the
// sandbox gives the demo customer (each /orders page decodes all five), with
// encoding/json as it was ("encoding-json") and as the client reads them now
// ("json-v2": go-json-experiment under the standard library's rules):
//
//	go test -run '^$' -bench DecodeAnswer -benchmem -count 6 ./gateway
func BenchmarkDecodeAnswer(b *testing.B) {
	s, err := sandbox.New(sandbox.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	get := func(path string) []byte {
		res, err := http.Get(srv.URL + "/v1/" + path)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return body
	}
	c, _ := gateway.NewClient(srv.URL + "/v1")
	id := sandbox.DemoGUID
	lists := []struct {
		name string
		body []byte
		out  func() any
	}{
		{"lessons", get("GLK/getTimetableForCurrentClient?clientId=" + id), func() any { return new(gateway.LessonsAnswer) }},
		{"pavilions", get("Rent/getPavilionRentTimetableForCurrentClient?clientId=" + id), func() any { return new(gateway.PavilionOrdersAnswer) }},
		{"rooms", get("CelRooms/getCelRoomsTimetableForCurrentClient?clientId=" + id), func() any { return new(gateway.RoomOrdersAnswer) }},
		{"aqua", get("aqua/getAquaOrders?userId=" + id), func() any { return new(gateway.AquaOrdersAnswer) }},
		{"hotel", get("hotel/getHotelOrders?userId=" + id), func() any { return new(gateway.HotelOrdersAnswer) }},
	}
	decoders := []struct {
		name   string
		decode func(body []byte, out any) error
	}{
		{"encoding-json", gateway.DecodeV1},
		{"json-v2", func(body []byte, out any) error { return gateway.DecodeOK(c, body, out) }},
	}
	for _, d := range decoders {
		for _, l := range lists {
			b.Run(d.name+"/"+l.name, func(b *testing.B) {
				b.SetBytes(int64(len(l.body)))
				b.ReportAllocs()
				for b.Loop() {
					if err := d.decode(l.body, l.out()); err != nil {
						b.Fatal(err, string(l.body[:min(200, len(l.body))]))
					}
				}
			})
		}
	}
}
