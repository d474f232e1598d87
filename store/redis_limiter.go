package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The sign-in limits (Limiter) as sorted sets of event ids scored
// by milliseconds, one per key. Take checks and records in one script, so
// no number of parallel requests on any instances passes a limit together.

// takeScript: KEYS are the rules' keys; ARGV is now, the hold's id, then
// max and window (ms) per key. It answers {0, n1, n2, …} when it recorded
// the hold (ni: the events under the i-th key with it), else {i, wait}: the i-th rule (from 1) refused and allows one more after
// wait ms.
var takeScript = redis.NewScript(`
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local max = tonumber(ARGV[1 + 2*i])
  local window = tonumber(ARGV[2 + 2*i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local n = redis.call('ZCARD', key)
  if n >= max then
    if max <= 0 then return {i, window} end
    local oldest = redis.call('ZRANGE', key, n - max, n - max, 'WITHSCORES')
    return {i, tonumber(oldest[2]) + window - now}
  end
end
local counts = {0}
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[2 + 2*i])
  redis.call('ZADD', key, now, ARGV[2])
  if redis.call('PTTL', key) < window then redis.call('PEXPIRE', key, window) end
  counts[i + 1] = redis.call('ZCARD', key)
end
return counts
`)

// waitScript: KEYS[1]; ARGV now, max, window: ms until one more is allowed.
var waitScript = redis.NewScript(`
local now, max, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n < max then return 0 end
if max <= 0 then return window end
local oldest = redis.call('ZRANGE', KEYS[1], n - max, n - max, 'WITHSCORES')
return tonumber(oldest[2]) + window - now
`)

// limitKey is a rule's key. One script checks the rules of a sign-in
// (the phone's, the address's) together, so they share one hash tag and
// thereby one slot of a Redis Cluster; the limits' traffic is small.
func (r *Redis) limitKey(k string) string { return r.prefix + "{limit}:" + k }

// Take checks every rule and records the hold under all their keys, or none.
func (r *Redis) Take(ctx context.Context, now time.Time, rules ...Rule) (Hold, error) {
	h := Hold{ID: newID()}
	keys := make([]string, len(rules))
	args := []any{now.UnixMilli(), h.ID}
	for i, rule := range rules {
		keys[i] = r.limitKey(rule.Key)
		args = append(args, rule.Max, rule.Window.Milliseconds())
	}
	res, err := takeScript.Run(ctx, r.c, keys, args...).Int64Slice()
	if err != nil {
		return Hold{}, err
	}
	if res[0] != 0 {
		return Hold{}, &Refusal{Limit: rules[res[0]-1].Name, RetryAfter: time.Duration(max(res[1], 1)) * time.Millisecond}
	}
	for i, rule := range rules {
		h.Keys = append(h.Keys, rule.Key)
		h.Counts = append(h.Counts, int(res[i+1]))
	}
	return h, nil
}

// Release removes the hold's events.
func (r *Redis) Release(ctx context.Context, h Hold) error {
	_, err := r.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, k := range h.Keys {
			p.ZRem(ctx, r.limitKey(k), h.ID)
		}
		return nil
	})
	return err
}

// Clear forgets every event under the keys.
func (r *Redis) Clear(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = r.limitKey(k)
	}
	return r.c.Del(ctx, full...).Err()
}

// Wait is how long until rule allows one more event.
func (r *Redis) Wait(ctx context.Context, now time.Time, rule Rule) (time.Duration, error) {
	ms, err := waitScript.Run(ctx, r.c, []string{r.limitKey(rule.Key)}, now.UnixMilli(), rule.Max, rule.Window.Milliseconds()).Int64()
	return time.Duration(max(ms, 0)) * time.Millisecond, err
}
