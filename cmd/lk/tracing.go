package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// startTracing sets up OpenTelemetry traces from the standard OTEL_*
// variables. They are off unless asked for: OTEL_TRACES_EXPORTER=otlp, or
// an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) with no exporter named;
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn them off. The
// exporter speaks OTLP over HTTP (http/protobuf) and reads the rest of
// OTEL_EXPORTER_OTLP_* itself; the sampler is OTEL_TRACES_SAMPLER's,
// the service OTEL_SERVICE_NAME's (default "lk"). Off, the provider is nil
// and nothing is traced. The returned function flushes and stops.
func startTracing(ctx context.Context, getenv func(string) string, b build, log *slog.Logger) (trace.TracerProvider, func(), error) {
	off := func() {}
	exporter := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")))
	endpoint := getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") + getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	switch {
	case strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true"), exporter == "none":
		return nil, off, nil
	case exporter == "" && endpoint == "":
		return nil, off, nil
	case exporter != "" && exporter != "otlp":
		return nil, nil, fmt.Errorf("OTEL_TRACES_EXPORTER: %q is not supported: use otlp or none", exporter)
	}
	protocol := getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		protocol = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if protocol != "" && protocol != "http/protobuf" {
		return nil, nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL: %q is not supported: use http/protobuf", protocol)
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("OTEL_EXPORTER_OTLP: %w", err)
	}
	// WithFromEnv comes last, so OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES override the defaults.
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "lk"), attribute.String("service.version", b.version)),
		resource.WithTelemetrySDK(), resource.WithFromEnv())
	if err != nil {
		return nil, nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	log.Info("tracing", "exporter", "otlp", "protocol", "http/protobuf")
	return tp, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tp.Shutdown(sctx); err != nil {
			log.Warn("traces not flushed", "err", err)
		}
	}, nil
}
