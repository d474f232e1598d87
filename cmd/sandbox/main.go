// Command sandbox runs the sandbox provider gateway alone, for development
// and tests (see package lk/gateway/sandbox).
//
// Environment:
//
//	LK_SANDBOX_ADDR  listen address (default 127.0.0.1:8090)
//	LK_DATA_DIR      folder of sandbox.db (default ./data)
//	LK_GATEWAY_KEY_FILE  a file holding the service key every /v1 call must
//	                 carry (X-Api-Key), as lk reads it; empty: none asked
//
// Flags -addr, -data and -key-file override them.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"lk/gateway/sandbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	addr := getenv("LK_SANDBOX_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8090"
	}
	dataDir := getenv("LK_DATA_DIR")
	if dataDir == "" {
		dataDir = "./data"
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.StringVar(&addr, "addr", addr, "listen address")
	fs.StringVar(&dataDir, "data", dataDir, `data folder ("" keeps data in memory)`)
	keyFile := getenv("LK_GATEWAY_KEY_FILE")
	fs.StringVar(&keyFile, "key-file", keyFile, "a file holding the service key every /v1 call must carry (X-Api-Key)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	var key string
	if keyFile != "" {
		b, err := os.ReadFile(keyFile)
		if err != nil {
			return fmt.Errorf("LK_GATEWAY_KEY_FILE: %w", err)
		}
		if key = strings.TrimSpace(string(b)); key == "" {
			return fmt.Errorf("LK_GATEWAY_KEY_FILE: %s holds no key", keyFile)
		}
	}

	log := slog.New(slog.NewJSONHandler(stdout, nil))
	sb, err := sandbox.New(sandbox.Config{DataDir: dataDir, Logger: log, ServiceKey: key})
	if err != nil {
		return err
	}
	defer sb.Close()

	srv, err := sb.Start(ctx, addr)
	if err != nil {
		return err
	}
	log.Info("sandbox gateway ready", "base_url", "http://"+srv.Addr+"/v1", "data_dir", dataDir,
		"demo_phone", sandbox.DemoPhone, "sms_outbox", "http://"+srv.Addr+"/sandbox/sms/{phone digits}")

	<-ctx.Done()
	log.Info("sandbox: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
