package handlers

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/views"
	"lk/wallet"
)

// orderPass answers an order's pass, or its passes as one bundle. No web
// service keeps a pass up to date, so one that no longer lets anyone in is
// refused (410) with the reason.
func (s *Server) orderPass(c *echo.Context) error {
	k, id, err := s.orderParams(c)
	if err != nil {
		return err
	}
	pi, file := k.info().pass, strings.TrimPrefix(c.Path(), routeOrder+"/")
	if _, ok := k.(passer); !ok || s.passes == nil || pi == nil || file != pi.file && file != pi.bundle {
		return web.ErrNotFound
	}
	ctx, sess := c.Request().Context(), web.SessionOf(c)
	// Another customer's moved booking is 404 here, before the provider is asked.
	if to, err := s.moves.movedOn(ctx, sess.GUID, k, id); err != nil || to != "" {
		if err != nil {
			return err
		}
		return toMoved(passGone(fmt.Sprintf(msgPassMoved, to)), k, to)
	}
	o, err := orderOf(ctx, k, sess.GUID, id)
	if err != nil {
		if a, ok := s.lastAct(ctx, sess.GUID, k, id); ok {
			return backToOrder(k, id, passGone(a.text(s)+" "+msgPassVoid))
		}
		return backToOrder(k, id, fetchError(k, err))
	}
	if err := s.passRefusal(o); err != nil {
		if a, ok := s.lastAct(ctx, sess.GUID, k, id); ok && o.ref.Canceled {
			return backToOrder(k, id, passGone(a.text(s)+" "+msgPassVoid))
		}
		return backToOrder(k, id, err)
	}
	passes, err := k.(passer).passes(ctx, o)
	if err != nil {
		return err
	}
	if len(passes) > 1 && file != pi.bundle {
		return c.Redirect(http.StatusSeeOther, o.url(pi.bundle))
	}
	var signed []wallet.File
	for _, p := range passes {
		b, err := s.passes.Signer.Package(s.dress(p, o), s.passes.images)
		if err != nil {
			s.log.Error("pass not signed", "kind", string(k.info().id), "err", err)
			return &web.Error{Status: http.StatusInternalServerError, Title: msgPassTitle, Message: msgPassFailed}
		}
		signed = append(signed, wallet.File{Name: p.Serial + ".pkpass", Data: b})
	}
	name, ctype, body := string(k.info().id)+"-"+o.id, wallet.ContentType, signed[0].Data // id is checked by validID
	if file == pi.bundle {
		if body, err = wallet.Bundle(signed); err != nil {
			return err
		}
		name, ctype = name+".pkpasses", wallet.BundleContentType
	} else {
		name += ".pkpass"
	}
	h := c.Response().Header()
	// inline: Safari on an iPhone shows the pass; a desktop saves it.
	h.Set(echo.HeaderContentDisposition, `inline; filename="`+name+`"`)
	h.Set(echo.HeaderCacheControl, "private, no-store")
	return c.Blob(http.StatusOK, ctype, body)
}

// The resort's colours (the site's blue), as on the app's icon.
var passColors = wallet.Colors{Foreground: "rgb(255, 255, 255)", Background: "rgb(11, 95, 165)", Label: "rgb(214, 229, 244)"}

// dress adds what every pass carries: the resort, its colours and places,
// when the lock screen offers it and when it ends (the end of the booking's
// last day), the way back to the order, and in the demo that it is one.
func (s *Server) dress(p wallet.Pass, o order) wallet.Pass {
	p.Organization, p.LogoText, p.Colors, p.Locations = resortName, resortName, passColors, s.passes.Places
	if p.Relevant.IsZero() {
		p.Relevant = o.event.Start
	}
	last := o.event.End
	if last.IsZero() {
		last = o.event.Start
	}
	y, m, d := last.In(s.loc).Date()
	p.Expires = time.Date(y, m, d+1, 0, 0, 0, 0, s.loc)
	back := []wallet.Field{{Key: "page", Label: "Заказ в личном кабинете", Value: s.shell.absolute(o.url())}}
	if phone := s.shell.site.SupportPhone; phone != "" {
		back = append(back, wallet.Field{Key: "support", Label: "Служба поддержки", Value: phone})
	}
	back = append(back, wallet.Field{Key: "updates", Label: "Изменения", Value: msgPassNoUpdates})
	// A demo pass, shown at a gate or forwarded, must not pass for a booking.
	if s.shell.site.Demo() {
		p.Description = "(демо) " + p.Description
		p.LogoText = resortName + " · демо"
		p.Header = append([]wallet.Field{{Key: "demoMark", Label: "Режим", Value: "ДЕМО"}}, p.Header...)
		back = append([]wallet.Field{{Key: "demoNote", Label: "Демонстрационный режим", Value: views.DemoNotice}}, back...)
	}
	p.Back = append(p.Back, back...)
	return p
}
