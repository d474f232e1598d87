package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Format is the version of what this build writes in the data folder and
// in Redis. A build that writes what an older one cannot read raises it,
// and a build refuses at start a folder or a Redis of a format above its
// own, rather than misreading it for a day. Format 1 is read by every
// earlier build too: outcomes of forms are kept in the data folder as
// base64 JSON, as they always were; what is new (acts, confirmed numbers)
// is in files and keys earlier builds do not open.
const Format = 1

// ErrNewerFormat is a data folder or a Redis written by a newer build.
var ErrNewerFormat = errors.New("store: written by a newer build of lk")

// formatFile holds the data folder's format; a folder without it was
// written by a build before formats were marked, which Format 1 reads.
const formatFile = "format"

// checkFormat refuses a format above this build's and marks a lower one
// (none: 0) as this build's, through mark.
func checkFormat(have int, mark func() error) error {
	if have > Format {
		return fmt.Errorf("%w (format %d; this build reads formats up to %d)", ErrNewerFormat, have, Format)
	}
	if have < Format {
		return mark()
	}
	return nil
}

func parseFormat(v string) (int, error) {
	if v = strings.TrimSpace(v); v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("store: a format %q", v)
	}
	return n, nil
}

// checkFolderFormat reads and marks the folder's format.
func checkFolderFormat(dir string) error {
	path := filepath.Join(dir, formatFile)
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("store: read %s: %w", formatFile, err)
	}
	have, err := parseFormat(string(b))
	if err != nil {
		return err
	}
	return checkFormat(have, func() error {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(strconv.Itoa(Format)+"\n"), 0o600); err != nil {
			return fmt.Errorf("store: write %s: %w", formatFile, err)
		}
		return os.Rename(tmp, path)
	})
}

// CheckFormat reads and marks the format of the state kept in Redis.
func (r *Redis) CheckFormat(ctx context.Context) error {
	k := r.prefix + "format"
	v, err := r.c.Get(ctx, k).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	have, err := parseFormat(v)
	if err != nil {
		return err
	}
	return checkFormat(have, func() error { return r.c.Set(ctx, k, Format, 0).Err() })
}
