package gateway

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
)

// TestOneOrderMustBeTheOneAskedFor: a single-order fetch takes only an
// answer carrying the id it asked for. An order with no id, or another
// one's, is ErrNotFound, so a page never shows some order under this URL.
func TestOneOrderMustBeTheOneAskedFor(t *testing.T) {
	fetches := []struct {
		name string
		// answer is the provider's reply holding one order with id.
		answer func(id string) string
		fetch  func(ctx context.Context, c *Client, id string) (string, error)
	}{
		{"lesson", func(id string) string { return `{"timetable":[{"doc_ID":"` + id + `","kindOfSport":"Лыжи"}]}` },
			func(ctx context.Context, c *Client, id string) (string, error) {
				o, err := c.LessonOrder(ctx, "c1", id)
				return o.DocID, err
			}},
		{"pavilion", func(id string) string {
			return `{"timetable":[{"pavilion_Name":"Беседка","details":[{"iD_Rent":"` + id + `"}]}]}`
		}, func(ctx context.Context, c *Client, id string) (string, error) {
			o, err := c.PavilionOrder(ctx, "c1", id)
			return o.RentID(), err
		}},
		{"room", func(id string) string {
			return `{"timetable":[{"room_Name":"Зал","details":[{"iD_Rent":"` + id + `"}]}]}`
		}, func(ctx context.Context, c *Client, id string) (string, error) {
			o, err := c.RoomOrder(ctx, "c1", id)
			return o.RentID(), err
		}},
		{"aqua", func(id string) string { return `{"success":true,"currentOrder":{"orderId":"` + id + `"}}` },
			func(ctx context.Context, c *Client, id string) (string, error) {
				o, err := c.AquaOrder(ctx, "u1", id)
				return o.OrderID, err
			}},
		{"hotel", func(id string) string { return `{"success":true,"currentOrder":{"orderId":"` + id + `"}}` },
			func(ctx context.Context, c *Client, id string) (string, error) {
				o, err := c.HotelOrder(ctx, "u1", id)
				return o.OrderID, err
			}},
	}
	for _, f := range fetches {
		for _, tc := range []struct {
			name, answered string
			ok             bool
		}{
			{"the one asked for", "42", true},
			{"no id", "", false},
			{"another order", "43", false},
		} {
			t.Run(f.name+"/"+tc.name, func(t *testing.T) {
				c, mux, _ := setup(t)
				record(t, mux, http.StatusOK, "application/json", f.answer(tc.answered))
				got, err := f.fetch(t.Context(), c, "42")
				switch {
				case tc.ok && (err != nil || got != "42"):
					t.Errorf("got %q, %v; want order 42", got, err)
				case !tc.ok && !errors.Is(err, ErrNotFound):
					t.Errorf("answer with id %q: got %q, %v; want ErrNotFound", tc.answered, got, err)
				}
			})
		}
	}
}

// TestWritesRefuseAnEmptyClientID: like the reads, the calls that act for a
// client never go out without the client's id.
func TestWritesRefuseAnEmptyClientID(t *testing.T) {
	c, mux, _ := setup(t)
	var n atomic.Int32
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"success":true}`))
	})
	ctx := t.Context()
	writes := map[string]func() error{
		"ConfirmLesson":      func() error { return c.ConfirmLesson(ctx, "", "100001") },
		"CancelLesson":       func() error { return c.CancelLesson(ctx, CancelLessonRequest{LessonID: "100001", Sum: 2500}) },
		"ChangeLesson":       func() error { _, err := c.ChangeLesson(ctx, ChangeLessonRequest{LessonID: "100001"}); return err },
		"CancelPavilionRent": func() error { return c.CancelPavilionRent(ctx, CancelRentRequest{RentID: "200001"}) },
		"ChangePavilionRent": func() error {
			_, err := c.ChangePavilionRent(ctx, ChangePavilionRequest{RentID: "200001"})
			return err
		},
		"CancelRoomRent": func() error { return c.CancelRoomRent(ctx, CancelRentRequest{RentID: "210001"}) },
		"ChangeRoomRent": func() error { _, err := c.ChangeRoomRent(ctx, ChangeRoomRequest{RentID: "210001"}); return err },
		"EditClientInfo": func() error {
			return c.EditClientInfo(ctx, testToken, ProfileUpdate{FirstName: "Иван", LastName: "Иванов"})
		},
	}
	for name, write := range writes {
		if err := write(); err == nil {
			t.Errorf("%s with no client id: no error", name)
		}
	}
	if n.Load() != 0 {
		t.Errorf("provider called %d times", n.Load())
	}
	// With the id, the same calls go out.
	if err := c.ConfirmLesson(ctx, "c1", "100001"); err != nil || n.Load() != 1 {
		t.Errorf("ConfirmLesson with an id: %v, %d calls", err, n.Load())
	}
}
