package gateway

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The streamed body is the JSON encoding/json would write: the same value
// read back, its length announced exactly, the same bytes on every attempt.
func TestDocumentsBodyIsTheSameJSON(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	blob := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.UintN(256))
		}
		return b
	}
	var files []File
	for _, n := range []int{0, 1, 2, 3, 4, 3071, 3072, 3073, 100_000} {
		files = append(files, File{FileName: `справка "№1"\` + string(rune('a'+n%26)), FileExtension: "pdf", Data: blob(n)})
	}
	files = append(files, File{FileName: "уже.txt", FileExtension: "txt", File: "0K/RgNC40LLQtdGC"}) // base64 text as given
	form := RefundForm{Name: "Иван", Comment: `болезнь, "справка" приложена {"file_name":1}` + "\x00"}
	cases := []struct {
		name string
		req  func(docs []File) any
		back func() any
	}{
		{"hotel", func(d []File) any { return HotelRefundRequest{Documents: d, OrderID: "400001", FormRefund: form} }, func() any { return &HotelRefundRequest{} }},
		{"aqua", func(d []File) any {
			return AquaRefundRequest{ReturnOrderID: "300005", Products: []RefundProduct{{ProductID: "p", Price: 1200}}, Documents: d, FormRefund: &form}
		}, func() any { return &AquaRefundRequest{} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			placeholder, docs := withDocuments(files)
			open, size, err := documentsBody(tc.req(placeholder), docs)
			if err != nil {
				t.Fatal(err)
			}
			first, _ := io.ReadAll(open())
			again, _ := io.ReadAll(open())
			if int64(len(first)) != size || !bytes.Equal(first, again) {
				t.Fatalf("size %d, read %d, again equal %v", size, len(first), bytes.Equal(first, again))
			}
			// What encoding/json makes of the same request with the base64
			// text in place, read back, equals what the stream says.
			wire := make([]File, len(files))
			for i, f := range files {
				wire[i] = File{FileName: f.FileName, FileExtension: f.FileExtension, File: f.File}
				if f.Data != nil {
					wire[i].File = base64.StdEncoding.EncodeToString(f.Data)
				}
			}
			want, _ := json.Marshal(tc.req(wire))
			got, exp := tc.back(), tc.back()
			if err := json.Unmarshal(first, got); err != nil {
				t.Fatalf("the streamed body is not JSON: %v", err)
			}
			_ = json.Unmarshal(want, exp)
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("streamed body reads back as\n%+v\nwant\n%+v", got, exp)
			}
		})
	}
}

// Without documents nothing is streamed: [] where the field is required,
// and the water park's optional field left out, as before.
func TestNoDocumentsIsAnEmptyList(t *testing.T) {
	placeholder, docs := withDocuments(nil)
	if docs != nil {
		t.Fatal("files to stream without documents")
	}
	b, _ := json.Marshal(HotelRefundRequest{Documents: placeholder})
	if !bytes.Contains(b, []byte(`"documents":[]`)) {
		t.Errorf("hotel: %s", b)
	}
	b, _ = json.Marshal(AquaRefundRequest{Documents: placeholder})
	if bytes.Contains(b, []byte("documents")) {
		t.Errorf("aqua: %s", b)
	}
}

// Through the client: the provider receives the documents byte for byte,
// with a Content-Length and no chunked encoding.
func TestRefundSendsDocumentsByteForByte(t *testing.T) {
	data := bytes.Repeat([]byte{0, 1, 2, 250, 251, 252, '"', '\\'}, 700_001)
	var got HotelRefundRequest
	var length int64
	var chunked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		length, chunked = r.ContentLength, r.TransferEncoding
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"success":true}`)
	}))
	defer srv.Close()
	c, err := NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.RefundHotel(context.Background(), HotelRefundRequest{OrderID: "400001",
		Documents: []File{{FileName: "скан.jpg", FileExtension: "jpg", Data: data}, {FileName: "пусто", Data: []byte{}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Documents) != 2 || got.Documents[0].FileName != "скан.jpg" || got.Documents[1].File != "" {
		t.Fatalf("documents received: %d", len(got.Documents))
	}
	if b, err := base64.StdEncoding.DecodeString(got.Documents[0].File); err != nil || !bytes.Equal(b, data) {
		t.Errorf("the file arrived changed (%d bytes, %v)", len(b), err)
	}
	if length <= int64(len(data)) || len(chunked) != 0 {
		t.Errorf("Content-Length %d, Transfer-Encoding %v", length, chunked)
	}
}

// BenchmarkRefundBody compares the memory of sending 25 MB of documents
// streamed with encoding the whole body first (B/op):
// go test -run '^$' -bench RefundBody -benchmem ./gateway
func BenchmarkRefundBody(b *testing.B) {
	files := []File{{FileName: "a", FileExtension: "bin", Data: make([]byte, 10<<20)},
		{FileName: "b", FileExtension: "bin", Data: make([]byte, 10<<20)}, {FileName: "c", FileExtension: "bin", Data: make([]byte, 5<<20)}}
	b.Run("streamed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			placeholder, docs := withDocuments(files)
			open, _, err := documentsBody(HotelRefundRequest{Documents: placeholder}, docs)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, open())
		}
	})
	b.Run("marshalled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			wire := make([]File, len(files))
			for i, f := range files {
				wire[i] = File{FileName: f.FileName, FileExtension: f.FileExtension, File: base64.StdEncoding.EncodeToString(f.Data)}
			}
			body, _ := json.Marshal(HotelRefundRequest{Documents: wire})
			io.Copy(io.Discard, bytes.NewReader(body))
		}
	})
}

// rewinding records whether a request could be sent again from the start.
type rewinding struct{ same bool }

func (r *rewinding) RoundTrip(req *http.Request) (*http.Response, error) {
	first, _ := io.ReadAll(req.Body)
	if req.GetBody != nil {
		again, _ := req.GetBody()
		b, _ := io.ReadAll(again)
		r.same = len(b) > 0 && bytes.Equal(b, first) && int64(len(b)) == req.ContentLength
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader([]byte(`{"success":true}`))), Request: req}, nil
}

// net/http sends a request again on a kept-alive connection the provider
// had closed only if it can read the body from the start again.
func TestStreamedBodyCanStartAgain(t *testing.T) {
	rt := &rewinding{}
	c, err := NewClient("http://provider.test/v1", WithHTTPClient(&http.Client{Transport: rt}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RefundPavilion(context.Background(), PavilionRefundRequest{
		Documents: []File{{FileName: "a", FileExtension: "pdf", Data: []byte("%PDF-1.4 справка")}}}); err != nil {
		t.Fatal(err)
	}
	if !rt.same {
		t.Error("the streamed body cannot be read again from the start")
	}
}

// The contract states the largest refund request the client sends, and
// the documents the form accepts fit in it.
func TestLargestRefundRequestInTheContract(t *testing.T) {
	b, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := "**" + strconv.Itoa(MaxRefundRequest) + " bytes**"; !strings.Contains(string(b), want) {
		t.Errorf("openapi.yaml does not state %s", want)
	}
	if MaxRefundRequest < base64.StdEncoding.EncodedLen(MaxDocuments)+1<<20 {
		t.Errorf("%d bytes cannot carry %d bytes of documents in base64", MaxRefundRequest, MaxDocuments)
	}
}
