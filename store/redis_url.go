package store

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// openRedisClient connects to LK_REDIS_URL: one server
// (redis://[:password@]host:port/db, rediss:// with TLS), or a master
// watched by Sentinels in the form
// redis-sentinel://[password@]host:26379[,host:26379…][/db]#mastername,
// where the client asks the Sentinels which server is the master now and
// follows it across a failover. The password is the data servers' (the
// Sentinels are asked without one). sentinel tells which it was.
// Commands wait at most timeout for Redis.
func openRedisClient(rawURL string, timeout time.Duration) (c *redis.Client, sentinel bool, err error) {
	if !strings.HasPrefix(rawURL, "redis-sentinel://") {
		opt, err := redis.ParseURL(rawURL)
		if err != nil {
			return nil, false, fmt.Errorf("store: LK_REDIS_URL: %w", err)
		}
		opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = time.Second, timeout, timeout
		opt.MaxRetries = 1
		return redis.NewClient(opt), false, nil
	}
	opt, err := ParseSentinelURL(rawURL)
	if err != nil {
		return nil, true, err
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = time.Second, timeout, timeout
	opt.MaxRetries = 1
	return redis.NewFailoverClient(opt), true, nil
}

// ParseSentinelURL reads redis-sentinel://[password@]host:port[,host:port…][/db]#mastername.
func ParseSentinelURL(rawURL string) (*redis.FailoverOptions, error) {
	bad := func(why string) error {
		return fmt.Errorf("store: LK_REDIS_URL: %s: want redis-sentinel://[password@]host:26379[,host:26379…][/db]#mastername", why)
	}
	rest, ok := strings.CutPrefix(rawURL, "redis-sentinel://")
	if !ok {
		return nil, bad("not a redis-sentinel:// URL")
	}
	rest, master, ok := strings.Cut(rest, "#")
	if !ok || master == "" || strings.ContainsAny(master, "/?#@,") {
		return nil, bad("no #mastername at the end")
	}
	opt := &redis.FailoverOptions{MasterName: master}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		opt.Password, rest = rest[:at], rest[at+1:]
		if u, p, ok := strings.Cut(opt.Password, ":"); ok { // user:password, or :password
			opt.Username, opt.Password = u, p
		}
	}
	hosts, db, _ := strings.Cut(rest, "/")
	if db != "" {
		n, err := strconv.Atoi(db)
		if err != nil || n < 0 {
			return nil, bad(fmt.Sprintf("the database %q is not a number", db))
		}
		opt.DB = n
	}
	for _, h := range strings.Split(hosts, ",") {
		host, port, err := net.SplitHostPort(strings.TrimSpace(h))
		if err != nil || host == "" {
			return nil, bad(fmt.Sprintf("%q is not host:port", h))
		}
		if _, err := strconv.Atoi(port); err != nil {
			return nil, bad(fmt.Sprintf("%q is not host:port", h))
		}
		opt.SentinelAddrs = append(opt.SentinelAddrs, net.JoinHostPort(host, port))
	}
	return opt, nil
}
