package web

import (
	"strconv"

	"github.com/labstack/echo/v5"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Traced makes each request a span, the parent of its provider calls, named by
// the route, never the path or query: they hold order ids, phones and codes.
// Without a provider, nothing is traced.
func Traced(tp trace.TracerProvider) echo.MiddlewareFunc {
	if tp == nil {
		return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	t := tracing{tp.Tracer("lk/handlers")}
	return t.trace
}

type tracing struct{ tracer trace.Tracer }

func (t tracing) trace(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		ctx := propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		method := metricMethod(r.Method)
		ctx, span := t.tracer.Start(ctx, method, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", method)))
		defer span.End()
		if id, _ := c.Get(keyRequestID).(string); id != "" {
			span.SetAttributes(attribute.String("lk.request_id", id))
		}
		c.SetRequest(r.WithContext(ctx))
		err := next(c)
		if err != nil {
			// Answered inside the span, so the status below is the one sent.
			c.Echo().HTTPErrorHandler(c, err)
		}
		status, sent := reportedStatus(c)
		if route := c.Path(); route != "" && method != methodOther {
			span.SetName(method + " " + route)
			span.SetAttributes(attribute.String("http.route", route))
		}
		span.SetAttributes(attribute.Int("http.response.status_code", status))
		if sent != status {
			span.SetAttributes(attribute.Int("lk.sent_status_code", sent))
		}
		if status >= 500 {
			span.SetStatus(codes.Error, strconv.Itoa(status))
		}
		return nil
	}
}
