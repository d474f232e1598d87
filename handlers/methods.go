package handlers

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v5"
)

// Routes of the probes, whose requests are logged at debug.
const (
	routeHealthz = "/healthz"
	routeReadyz  = "/readyz"
)

// methodOther is the metric label of every method outside HTTP's own:
// a client may send any token as a method, and one series each would let
// it grow /metrics without bound.
const methodOther = "other"

// metricMethod is the method as a metric label: one of HTTP's methods, or
// methodOther.
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return methodOther
}

// errNotImplemented answers a method outside HTTP's own (501: the server
// knows no such method), where a known method the route does not take is
// 405.
var errNotImplemented = &httpError{http.StatusNotImplemented, "Недопустимый запрос", msgMethod}

// notFound answers a request no route took: 405 with Allow when the path
// is a route of other methods (a group's catch-all would otherwise hide
// it), else the Russian 404.
func notFound(c *echo.Context) error {
	var allow []string
	for _, r := range c.Echo().Router().Routes() {
		if r.Path != "/*" && r.Method != echo.RouteNotFound && matchRoute(r.Path, c.Request().URL.Path) && !slices.Contains(allow, r.Method) {
			allow = append(allow, r.Method)
		}
	}
	if len(allow) == 0 {
		return errNotFound
	}
	slices.Sort(allow)
	c.Response().Header().Set(echo.HeaderAllow, strings.Join(allow, ", "))
	return errMethodNotAllowed
}

var errMethodNotAllowed = &httpError{http.StatusMethodNotAllowed, "Недопустимый запрос", msgMethod}

// matchRoute tells whether path fits pattern, echo's route syntax: a
// ":name" segment is any one segment, a final "*" the rest.
func matchRoute(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	for i, p := range ps {
		switch {
		case p == "*":
			return true
		case i >= len(xs):
			return false
		case strings.HasPrefix(p, ":"):
			if xs[i] == "" {
				return false
			}
		case p != xs[i]:
			return false
		}
	}
	return len(ps) == len(xs)
}
