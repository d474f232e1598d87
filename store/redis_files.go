package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Refund files kept for a retry (RefundFiles): per key one hash
// (file id → name and bytes; content digest → id; the total size) and one
// list of ids in the order they were put, both expiring together. Put is
// one script, so parallel puts cannot pass the key's limits together.

var putScript = redis.NewScript(`
local h, order = KEYS[1], KEYS[2]
local id, blob, digest = ARGV[1], ARGV[2], ARGV[3]
local maxFiles, maxBytes, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local same = redis.call('HGET', h, 'd:' .. digest)
if same then
  redis.call('PEXPIRE', h, ttl); redis.call('PEXPIRE', order, ttl)
  return same
end
local size = tonumber(redis.call('HGET', h, 'size') or '0')
if redis.call('LLEN', order) >= maxFiles or size + #blob > maxBytes then return false end
redis.call('HSET', h, 'f:' .. id, blob, 'd:' .. digest, id, 'n:' .. id, digest)
redis.call('HINCRBY', h, 'size', #blob)
redis.call('RPUSH', order, id)
redis.call('PEXPIRE', h, ttl); redis.call('PEXPIRE', order, ttl)
return id
`)

var removeScript = redis.NewScript(`
local h, order, id = KEYS[1], KEYS[2], ARGV[1]
local blob = redis.call('HGET', h, 'f:' .. id)
if not blob then return 0 end
local digest = redis.call('HGET', h, 'n:' .. id)
redis.call('HDEL', h, 'f:' .. id, 'n:' .. id, 'd:' .. digest)
redis.call('HINCRBY', h, 'size', -#blob)
redis.call('LREM', order, 0, id)
return 1
`)

// RedisFiles is the refund files' side of a Redis store.
type RedisFiles struct{ r *Redis }

// Files is r as a RefundFiles.
func (r *Redis) Files() *RedisFiles { return &RedisFiles{r} }

// fileKeys are key's hash and list; the braces (a hash tag) put both in
// one slot of a Redis Cluster, where a script may touch only one.
func (r *Redis) fileKeys(key string) []string {
	return []string{r.prefix + "files:{" + key + "}", r.prefix + "files:{" + key + "}:order"}
}

// Put keeps f under key; the same name and bytes again give the file kept.
func (rf *RedisFiles) Put(ctx context.Context, key string, f RefundFile, ttl time.Duration) (RefundFile, error) {
	r := rf.r
	blob := encodeFile(f)
	sum := sha256.Sum256(blob)
	id, err := putScript.Run(ctx, r.c, r.fileKeys(key), f.ID, blob, hex.EncodeToString(sum[:]),
		RefundFilesPerKey, RefundBytesPerKey, ttl.Milliseconds()).Text()
	switch {
	case errors.Is(err, redis.Nil):
		return RefundFile{}, ErrRefundFilesFull
	case err != nil:
		return RefundFile{}, err
	}
	f.ID = id
	return f, nil
}

// List gives the files kept under key, in the order they were put.
func (rf *RedisFiles) List(ctx context.Context, key string) ([]RefundFile, error) {
	r := rf.r
	keys := r.fileKeys(key)
	ids, err := r.c.LRange(ctx, keys[1], 0, -1).Result()
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	fields := make([]string, len(ids))
	for i, id := range ids {
		fields[i] = "f:" + id
	}
	blobs, err := r.c.HMGet(ctx, keys[0], fields...).Result()
	if err != nil {
		return nil, err
	}
	var out []RefundFile
	for i, b := range blobs {
		s, ok := b.(string)
		if !ok {
			continue // removed meanwhile
		}
		if f, ok := decodeFile(ids[i], []byte(s)); ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// Remove forgets one file.
func (rf *RedisFiles) Remove(ctx context.Context, key, id string) error {
	return removeScript.Run(ctx, rf.r.c, rf.r.fileKeys(key), id).Err()
}

// Clear forgets every file of key.
func (rf *RedisFiles) Clear(ctx context.Context, key string) error {
	return rf.r.c.Del(ctx, rf.r.fileKeys(key)...).Err()
}

// encodeFile is the name's length (4 bytes), the name, then the bytes.
func encodeFile(f RefundFile) []byte {
	b := make([]byte, 4, 4+len(f.Name)+len(f.Data))
	binary.BigEndian.PutUint32(b, uint32(len(f.Name)))
	return append(append(b, f.Name...), f.Data...)
}

func decodeFile(id string, b []byte) (RefundFile, bool) {
	if len(b) < 4 {
		return RefundFile{}, false
	}
	n := int(binary.BigEndian.Uint32(b))
	if 4+n > len(b) {
		return RefundFile{}, false
	}
	return RefundFile{ID: id, Name: string(b[4 : 4+n]), Data: b[4+n:]}, true
}
