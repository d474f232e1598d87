package store

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// openRedisClient connects to LK_REDIS_URL: one server
// (redis://[:password@]host:port/db, rediss:// with TLS), or a master
// watched by Sentinels, in either of two forms:
// redis-sentinel://[password@]host:26379[,host:26379…][/db]#mastername, or
// go-redis's own redis[s]://[user:password@]host:26379[/db]?master_name=…
// [&addr=host:26379…][&password=…], whose user and password are the
// Sentinels' and whose rediss:// speaks TLS to the Sentinels and the data
// servers. The client asks the Sentinels which server is the master now and
// follows it across a failover. password, when not empty, is the data
// servers' password (LK_REDIS_PASSWORD_FILE), in place of one in the URL.
// sentinel tells which it was. Commands wait at most timeout for Redis.
func openRedisClient(rawURL string, timeout time.Duration, password string) (c *redis.Client, sentinel bool, err error) {
	var opt *redis.FailoverOptions
	switch {
	case strings.HasPrefix(rawURL, "redis-sentinel://"):
		if opt, err = ParseSentinelURL(rawURL); err != nil {
			return nil, true, err
		}
	case strings.Contains(rawURL, "master_name="):
		if opt, err = redis.ParseFailoverURL(rawURL); err != nil {
			return nil, true, fmt.Errorf("store: LK_REDIS_URL: %w", err)
		}
		if opt.MasterName == "" {
			return nil, true, errors.New("store: LK_REDIS_URL: master_name is empty")
		}
	default:
		one, err := redis.ParseURL(rawURL)
		if err != nil {
			return nil, false, fmt.Errorf("store: LK_REDIS_URL: %w", err)
		}
		one.DialTimeout, one.ReadTimeout, one.WriteTimeout = time.Second, timeout, timeout
		one.MaxRetries = 1
		if password != "" {
			one.Password = password
		}
		return redis.NewClient(one), false, nil
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = time.Second, timeout, timeout
	opt.MaxRetries = 1
	if password != "" {
		opt.Password = password
	}
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
