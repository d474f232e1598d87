package handlers

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/views"
	"lk/wallet"
)

// passer is a kind whose bookings go to Apple Wallet, made from what the
// account already reads of the order.
type passer interface {
	// ready is how many passes o has now, or why it has none.
	ready(o order) (int, error)
	passes(ctx context.Context, s *Server, o order) ([]wallet.Pass, error)
}

// passInfo names an order's passes: file for one, bundle for several.
type passInfo struct {
	file, bundle string
}

// Wallet makes the orders' passes; without a Signer the pages offer none.
type Wallet struct {
	Signer *wallet.Signer
	// Places are where the lock screen offers a pass, near the resort.
	Places []wallet.Location
	// MeetingPoint is where a lesson's group meets its instructor.
	MeetingPoint string
}

type passKit struct {
	Wallet
	images []wallet.File
}

// The passes' images, in static/img/pass (islands/icons.mjs draws them).
var passImages = []string{"icon.png", "icon@2x.png", "icon@3x.png", "logo.png", "logo@2x.png", "logo@3x.png"}

func newPassKit(w Wallet, static fs.FS) (*passKit, error) {
	if w.Signer == nil {
		return nil, nil
	}
	k := &passKit{Wallet: w}
	k.Places = slices.Clone(w.Places)
	for i := range k.Places {
		k.Places[i].RelevantText = cmp.Or(k.Places[i].RelevantText, msgPassNear)
	}
	for _, name := range passImages {
		b, err := fs.ReadFile(static, "img/pass/"+name)
		if err != nil {
			return nil, fmt.Errorf("handlers: a pass image: %w", err)
		}
		k.images = append(k.images, wallet.File{Name: name, Data: b})
	}
	return k, nil
}

func passGone(msg string) *web.Error {
	return &web.Error{Status: http.StatusGone, Title: msgPassTitle, Message: msg}
}

// passRefusal is why o offers no pass now: a cancelled (or refunded) or
// past booking's is gone for good (410); the kind says the rest.
func (s *Server) passRefusal(o order) error {
	if o.ref.Canceled {
		return passGone(msgPassCanceled)
	}
	if !s.upcoming(o.ref) {
		return passGone(msgPassPast)
	}
	_, err := o.kind.(passer).ready(o)
	return err
}

func (s *Server) offersPass(o order) bool {
	_, ok := o.kind.(passer)
	return s.passes != nil && ok && o.kind.info().pass != nil && s.passRefusal(o) == nil
}

// passURL is the order's pass, or its bundle when it has several.
func (s *Server) passURL(o order) string {
	pi := o.kind.info().pass
	if n, _ := o.kind.(passer).ready(o); n > 1 && pi.bundle != "" {
		return o.url(pi.bundle)
	}
	return o.url(pi.file)
}

// A plain link, no download attribute: an iPhone's Safari shows a pass it
// opens and saves one it downloads.
func (s *Server) passAction(o order) (views.Action, bool) {
	if !s.offersPass(o) {
		return views.Action{}, false
	}
	return views.Action{Name: views.ActionWallet, Label: msgPassLabel, URL: s.passURL(o), Style: "btn-2"}, true
}

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
	if to, err := s.movedOn(ctx, sess.GUID, k, id); err != nil || to != "" {
		if err != nil {
			return err
		}
		return toMoved(passGone(fmt.Sprintf(msgPassMoved, to)), k, to)
	}
	o, err := orderOf(ctx, s, k, sess.GUID, id)
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
	passes, err := k.(passer).passes(ctx, s, o)
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
