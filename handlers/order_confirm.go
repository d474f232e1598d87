package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/store"
)

// orderConfirm is 'Подтвердить запись' (GLK/confirmLesson), posted from the
// lesson's page or its card; the customer lands back where they pressed it
// (the page reloads), with the notice.
func (s *Server) orderConfirm(c *echo.Context) error {
	return s.runAction(c, actConfirm, confirmForm{formBase{s, c}})
}

type confirmForm struct{ formBase }

func (f confirmForm) call(ctx context.Context, o order) store.Outcome {
	if err := o.kind.(confirmer).confirm(ctx, web.SessionOf(f.c), o); err != nil {
		out := f.s.actionFailed(ctx, o, actConfirm, err, msgConfirmFailed, msgConfirmFailed)
		if !out.Unknown {
			out.Message = msgConfirmFailed // this text, whatever the provider said
		}
		return out
	}
	return store.Outcome{Status: http.StatusSeeOther, Location: backTo(f.c, o.url()), Message: msgConfirmed}
}

func (f confirmForm) again(o order, status int, msg string) error {
	return f.s.orderView(f.c, status, o, msg)
}
