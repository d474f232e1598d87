package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v5"

	"lk/store"
)

// orderConfirm is 'Подтвердить запись' (GLK/confirmLesson), posted from the
// lesson's page or its card. The guard fetches the lesson again and checks
// canConfirm anew, whatever the page that posted showed; the customer lands
// back where they pressed it (the page reloads), with the notice.
func (s *Server) orderConfirm(c *echo.Context, o order) error {
	out, err := s.onlyOnce(c, o, actConfirm, func(ctx context.Context, _ order) store.Outcome {
		if err := o.kind.confirm(ctx, s, session(c), o); err != nil {
			out := s.failed(o, actConfirm, err, msgConfirmFailed, msgConfirmFailed)
			if !out.Unknown {
				out.Message = msgConfirmFailed // this text, whatever the provider said
			}
			return out
		}
		return store.Outcome{Status: http.StatusSeeOther, Location: backTo(c, o.url()), Message: msgConfirmed}
	})
	if err != nil {
		return err
	}
	return s.finish(c, o, actConfirm, out, func(status int, msg string) error {
		return s.orderView(c, status, o, msg)
	})
}
