package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"
	"github.com/labstack/echo/v5/middleware"

	"lk/views"
)

func (s *Server) routes(e *echo.Echo) {
	e.Use(s.observe, s.traced, s.secure, compress(gzipLevel), s.handleErrors, s.admit, middleware.Recover(),
		crossOrigin(), s.bodyLimit, s.loadSession, s.offlineMarks)

	// Operations.
	e.GET(routeHealthz, func(c *echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET(routeReadyz, s.readyz)
	e.GET("/robots.txt", robots)
	e.GET("/static/*", s.staticFiles)
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
	g := e.Group("", requireSession, s.markSpeculative)
	s.shed = map[string]bool{}
	read := func(path string, h echo.HandlerFunc) {
		g.GET(path, h)
		s.shed[path] = true
	}
	// Pages that wait for the provider show that they are loading.
	read(views.PathHome, s.loading(s.home))
	read(views.PathProfileEdit, s.loading(s.profileForm))
	g.POST(views.PathProfileEdit, s.profileSubmit)
	read(views.PathOrders, s.loading(s.orders))
	read(routeOrder, s.loading(s.order))
	g.POST(routeOrder+"/confirm", s.orderConfirm)
	read(routeOrder+"/cancel", s.loading(s.withOrder(actCancel, s.orderCancelForm)))
	g.POST(routeOrder+"/cancel", s.orderCancel)
	read(routeOrder+"/refund", s.loading(s.withOrder(actRefund, s.orderRefundForm)))
	g.POST(routeOrder+"/refund", s.orderRefund)
	read(routeOrder+"/transfer", s.loading(s.withOrder(actTransfer, s.orderTransferForm)))
	g.POST(routeOrder+"/transfer", s.orderTransfer)
	read(routeOrder+"/ticket.pdf", s.orderDocument)
	read(routeOrder+"/voucher.pdf", s.orderDocument)
	read(routeOrder+"/"+calendarFile, s.orderCalendar)

	e.RouteNotFound("/*", notFound)
}

// robots lets search engines see the public pages only.
func robots(c *echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.String(http.StatusOK, "User-agent: *\nAllow: /login\nAllow: /signup\nDisallow: /\n")
}
