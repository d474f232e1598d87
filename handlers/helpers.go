package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/views"
)

// seconds is d in whole seconds, rounded up: a wait said to a customer.
func seconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

func firstError(errs views.Errors) string {
	if len(errs) == 0 {
		return ""
	}
	return errs[0].Message
}

// waitFirst is how long a request sent again waits for the first one's
// outcome (a double click, a retry) before it is told it is still running.
const waitFirst = 30 * time.Second

// respondOK is a step done: an island's JSON, or the page at url.
func respondOK(c *echo.Context, a web.Answer, url string) error {
	a.OK = true
	return web.Respond(c, http.StatusOK, a, func() error { return web.SeeOther(c, url) })
}
