package gateway

import (
	"context"
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// HeaderRequestID carries the id of the customer's request to the provider,
// so a failing call in the provider's logs can be matched to ours.
const HeaderRequestID = "X-Request-Id"

type requestIDKey struct{}

// WithRequestID returns ctx carrying id, the id of the customer's request
// that a call is made for; the call sends it as HeaderRequestID and logs it.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID is the id WithRequestID put into ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// WithTracerProvider makes every call an OpenTelemetry span (a child of the
// span in the caller's context) and sends W3C trace context to the
// provider. Without it there are no spans.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *Client) {
		if tp != nil {
			c.tracer = tp.Tracer("lk/gateway")
		}
	}
}

// startSpan starts the span of one call. Its attributes are the call's
// name, method and path, never its query or body: those hold phones,
// codes and client ids.
func (c *Client) startSpan(ctx context.Context, cl call) (context.Context, trace.Span) {
	if c.tracer == nil {
		return ctx, noop.Span{}
	}
	attrs := []attribute.KeyValue{
		attribute.String("lk.gateway.call", cl.op),
		attribute.String("http.request.method", cl.method),
		attribute.String("url.path", c.base.Path+"/"+cl.path),
		attribute.String("server.address", c.base.Host),
	}
	if id := RequestID(ctx); id != "" {
		attrs = append(attrs, attribute.String("lk.request_id", id))
	}
	return c.tracer.Start(ctx, "gateway "+cl.op, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// endSpan records how the call ended: the status of the last answer, the
// attempts and the outcome (not the error's text, which may quote the
// provider).
func endSpan(span trace.Span, status, attempts int, err error) {
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(
		attribute.Int("http.response.status_code", status),
		attribute.Int("lk.gateway.attempts", attempts),
		attribute.String("lk.gateway.outcome", outcome(err)),
	)
	if err != nil {
		span.SetStatus(codes.Error, outcome(err))
	}
	span.End()
}

// annotate adds what every attempt carries besides the call itself: the
// customer request's id and the trace context.
func annotate(ctx context.Context, req *http.Request) {
	if id := RequestID(ctx); id != "" {
		req.Header.Set(HeaderRequestID, id)
	}
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(req.Header))
}

// requestIDAttr is the log attribute of the request id, when there is one.
func requestIDAttr(ctx context.Context) []slog.Attr {
	if id := RequestID(ctx); id != "" {
		return []slog.Attr{slog.String("request_id", id)}
	}
	return nil
}
