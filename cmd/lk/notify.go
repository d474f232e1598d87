package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

// notifier speaks systemd's notify protocol: one datagram per state on the
// unix socket NOTIFY_SOCKET names (a leading @ is the abstract namespace).
// Under Type=notify systemd waits for READY=1 before it calls the service
// started; with WatchdogSec= it restarts a service that sends no WATCHDOG=1
// within that time. Outside systemd (no NOTIFY_SOCKET) it does nothing.
type notifier struct {
	socket   string
	watchdog time.Duration // WATCHDOG_USEC for this process; 0: no watchdog
}

func newNotifier(getenv func(string) string) notifier {
	n := notifier{socket: getenv("NOTIFY_SOCKET")}
	usec, err := strconv.ParseInt(getenv("WATCHDOG_USEC"), 10, 64)
	// WATCHDOG_PID, when set, names the process the watchdog is for.
	if pid := getenv("WATCHDOG_PID"); err == nil && usec > 0 && (pid == "" || pid == strconv.Itoa(os.Getpid())) {
		n.watchdog = time.Duration(usec) * time.Microsecond
	}
	return n
}

// send sends state, such as READY=1; without a socket it is nothing.
func (n notifier) send(state string) error {
	if n.socket == "" {
		return nil
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: n.socket, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte(state))
	return err
}

// feed sends WATCHDOG=1 at half the watchdog's time for as long as ctx
// lasts, each time only when healthz answers 200 through the server's own
// listener: a server that cannot serve stops feeding it, and systemd
// restarts it.
func (n notifier) feed(ctx context.Context, healthz string, log *slog.Logger) {
	if n.watchdog <= 0 || n.socket == "" {
		return
	}
	every := n.watchdog / 2
	client := &http.Client{Timeout: every / 2}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n.feedOnce(client, healthz, log)
	}
}

// feedOnce asks healthz and, when it answers 200, sends WATCHDOG=1; it
// says whether it did.
func (n notifier) feedOnce(client *http.Client, healthz string, log *slog.Logger) bool {
	res, err := client.Get(healthz)
	if err == nil {
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			err = &statusError{res.Status}
		}
	}
	if err != nil {
		log.Error("watchdog not fed: the server does not answer its own health check", "err", err)
		return false
	}
	if err := n.send("WATCHDOG=1"); err != nil {
		log.Warn("systemd notify", "err", err)
		return false
	}
	return true
}

type statusError struct{ status string }

func (e *statusError) Error() string { return "answered " + e.status }
