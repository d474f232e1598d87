package web

import (
	"slices"
	"strings"

	"github.com/labstack/echo/v5"
)

// A path of other methods is 405 with Allow, not hidden by a group's catch-all.
func NotFound(c *echo.Context) error {
	var allow []string
	for _, r := range c.Echo().Router().Routes() {
		if r.Path != "/*" && r.Method != echo.RouteNotFound && matchRoute(r.Path, c.Request().URL.Path) && !slices.Contains(allow, r.Method) {
			allow = append(allow, r.Method)
		}
	}
	if len(allow) == 0 {
		return ErrNotFound
	}
	slices.Sort(allow)
	c.Response().Header().Set(echo.HeaderAllow, strings.Join(allow, ", "))
	return errMethodNotAllowed
}

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
