package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"
	"github.com/labstack/echo/v5/middleware"

	"lk/handlers/web"
	"lk/views"
)

func (s *Server) routes(e *echo.Echo) {
	w := s.web
	e.Use(w.Observe, w.Traced, w.Secure, web.Compress(web.GzipLevel), w.HandleErrors, w.Admit, middleware.Recover(),
		web.CrossOrigin(), w.BodyLimit, w.LoadSession, s.offlineMarks)

	// Operations.
	e.GET(web.RouteHealthz, func(c *echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET(web.RouteReadyz, w.Readyz)
	e.GET("/robots.txt", robots)
	e.GET("/static/*", w.StaticFiles)
	e.GET("/favicon.ico", func(c *echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, "/static/img/favicon-32.png")
	})
	e.GET(views.PathManifest, s.manifest)
	e.GET(views.PathWorker, s.worker)
	e.GET(views.PathOffline, s.offline)

	// Sign-in, public.
	e.GET(views.PathLogin, s.loginForm, signedOut)
	e.POST(views.PathLogin, s.loginSubmit)
	e.GET(views.PathLoginCode, s.codeForm)
	e.POST(views.PathLoginCode, s.codeSubmit)
	e.POST(views.PathLoginResend, s.codeResend)
	e.GET(views.PathSignup, s.signupForm, signedOut)
	e.POST(views.PathSignup, s.signupSubmit)
	e.POST(views.PathLogout, s.logout)

	// The account, guarded. Its pages and documents take their turn when
	// more are asked than the cores can serve (admit).
	g := e.Group("", web.RequireSession, w.MarkSpeculative)
	read := func(path string, h echo.HandlerFunc) {
		g.GET(path, h)
		w.Hold(path)
	}
	// Pages that wait for the provider show that they are loading.
	read(views.PathHome, w.Loading(s.home))
	read(views.PathProfileEdit, w.Loading(s.profileForm))
	g.POST(views.PathProfileEdit, s.profileSubmit)
	read(views.PathOrders, w.Loading(s.orders))
	read(routeOrder, w.Loading(s.order))
	g.POST(routeOrder+"/confirm", s.orderConfirm)
	read(routeOrder+"/cancel", w.Loading(s.withOrder(actCancel, s.orderCancelForm)))
	g.POST(routeOrder+"/cancel", s.orderCancel)
	read(routeOrder+"/refund", w.Loading(s.withOrder(actRefund, s.orderRefundForm)))
	g.POST(routeOrder+"/refund", s.orderRefund)
	read(routeOrder+"/transfer", w.Loading(s.withOrder(actTransfer, s.orderTransferForm)))
	g.POST(routeOrder+"/transfer", s.orderTransfer)
	read(routeOrder+"/ticket.pdf", s.orderDocument)
	read(routeOrder+"/voucher.pdf", s.orderDocument)
	read(routeOrder+"/"+calendarFile, s.orderCalendar)

	e.RouteNotFound("/*", web.NotFound)
}

// robots lets search engines see the public pages only.
func robots(c *echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.String(http.StatusOK, "User-agent: *\nAllow: /login\nAllow: /signup\nDisallow: /\n")
}
