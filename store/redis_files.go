package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Refund files kept for a retry (RefundFiles). Per key one hash (file id →
// name and bytes; id → size, content digest and name; name-and-bytes
// digest → id; the key's size) and one list of ids in the order they were
// put, both expiring together. Beside them, the counts every Put checks:
// the bytes of each owner, the bytes of everyone, and when each key ends
// (a sorted set), so that a key Redis let expire is taken off the counts
// by the next Put. Every change is one script, so parallel puts on any
// instances cannot pass a limit together; all keys share one hash tag, so
// that a script may touch them on a Redis Cluster too.

// The counts' keys, after the prefix.
const (
	filesTag    = "files:{kept}:"
	filesEnds   = filesTag + "ends"   // key's hash → when it ends (ms)
	filesSizes  = filesTag + "sizes"  // "s:"+hash → its bytes, "o:"+hash → its owner's count
	filesTotal  = filesTag + "total"  // bytes of everyone
	filesOwner  = filesTag + "owner:" // + owner: bytes of one owner
	filesOrder  = ":order"            // after a key's hash: its list
	filesPerPut = 100                 // ended keys taken off the counts by one Put, at most
)

// filesLib is the part every script shares: now in ms, and take(hash, n)
// moves n bytes of hash on and off the counts.
const filesLib = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function take(ends, sizes, total, hash, n)
  local owner = redis.call('HGET', sizes, 'o:' .. hash)
  if n > 0 then -- Redis reads Lua's -0 as no integer
    redis.call('DECRBY', total, n)
    if owner and redis.call('DECRBY', owner, n) <= 0 then redis.call('DEL', owner) end
  end
  if n <= 0 or redis.call('HINCRBY', sizes, 's:' .. hash, -n) <= 0 then
    redis.call('HDEL', sizes, 's:' .. hash, 'o:' .. hash)
    redis.call('ZREM', ends, hash)
  end
end
local function sweep(ends, sizes, total, most)
  for _, hash in ipairs(redis.call('ZRANGEBYSCORE', ends, '-inf', now, 'LIMIT', 0, most)) do
    take(ends, sizes, total, hash, tonumber(redis.call('HGET', sizes, 's:' .. hash) or '0'))
    redis.call('ZREM', ends, hash)
    redis.call('DEL', hash, hash .. '` + filesOrder + `')
  end
end
`

// putScript answers the id kept, or "full" (the key or its owner) or
// "store" (everyone).
var putScript = redis.NewScript(filesLib + `
local h, order, ends, sizes, total, owner = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local id, blob, digest, meta = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local maxFiles, maxBytes, maxStore, ttl, most = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local n = tonumber(ARGV[10]) -- the document's bytes, without its name
sweep(ends, sizes, total, most)
local function keep()
  redis.call('PEXPIRE', h, ttl); redis.call('PEXPIRE', order, ttl)
  redis.call('ZADD', ends, now + ttl, h)
end
local same = redis.call('HGET', h, 'd:' .. digest)
if same then keep() return same end
local size = tonumber(redis.call('HGET', h, 'size') or '0')
local held = tonumber(redis.call('GET', owner) or '0')
if redis.call('LLEN', order) >= maxFiles or size + n > maxBytes or held + n > maxBytes then return 'full' end
if tonumber(redis.call('GET', total) or '0') + n > maxStore then return 'store' end
redis.call('HSET', h, 'f:' .. id, blob, 'd:' .. digest, id, 'n:' .. id, digest, 'm:' .. id, meta)
redis.call('HINCRBY', h, 'size', n)
redis.call('RPUSH', order, id)
redis.call('INCRBY', owner, n); redis.call('INCRBY', total, n)
redis.call('HINCRBY', sizes, 's:' .. h, n); redis.call('HSET', sizes, 'o:' .. h, owner)
keep()
return id
`)

var removeScript = redis.NewScript(filesLib + `
local h, order, ends, sizes, total, id = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1]
local meta = redis.call('HGET', h, 'm:' .. id)
if not meta then return 0 end
local n = tonumber(string.match(meta, '^%d+'))
local digest = redis.call('HGET', h, 'n:' .. id)
redis.call('HDEL', h, 'f:' .. id, 'n:' .. id, 'd:' .. digest, 'm:' .. id)
redis.call('HINCRBY', h, 'size', -n)
redis.call('LREM', order, 0, id)
take(ends, sizes, total, h, n)
return 1
`)

var clearScript = redis.NewScript(filesLib + `
local h, order, ends, sizes, total = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
take(ends, sizes, total, h, tonumber(redis.call('HGET', sizes, 's:' .. h) or '0'))
redis.call('ZREM', ends, h)
redis.call('DEL', h, order)
return 1
`)

// RedisFiles is the refund files' side of a Redis store.
type RedisFiles struct {
	r     *Redis
	limit int
}

// Files is r as a RefundFiles holding at most RefundStoreLimit bytes.
func (r *Redis) Files() *RedisFiles { return r.FilesWithin(RefundStoreLimit) }

// FilesWithin is r as a RefundFiles holding at most limit bytes for
// everyone, over every instance.
func (r *Redis) FilesWithin(limit int) *RedisFiles { return &RedisFiles{r, limit} }

// fileKeys are key's hash and list, then the counts.
func (rf *RedisFiles) fileKeys(key string) []string {
	p := rf.r.prefix
	h := p + filesTag + key
	return []string{h, h + filesOrder, p + filesEnds, p + filesSizes, p + filesTotal}
}

// Put keeps f under key; the same name and bytes again give the file kept.
func (rf *RedisFiles) Put(ctx context.Context, owner, key string, f RefundFile, ttl time.Duration) (RefundFile, error) {
	blob := encodeFile(f)
	sum := sha256.Sum256(blob)
	f.Size, f.Sum = len(f.Data), digest(f.Data)
	meta := strconv.Itoa(f.Size) + " " + f.Sum + " " + f.Name
	keys := append(rf.fileKeys(key), rf.r.prefix+filesOwner+owner)
	id, err := putScript.Run(ctx, rf.r.docs, keys, f.ID, blob, hex.EncodeToString(sum[:]), meta,
		RefundFilesPerKey, RefundBytesPerKey, rf.limit, ttl.Milliseconds(), filesPerPut, f.Size).Text()
	switch {
	case err != nil:
		return RefundFile{}, err
	case id == "full":
		return RefundFile{}, ErrRefundFilesFull
	case id == "store":
		return RefundFile{}, ErrRefundStoreFull
	}
	f.ID = id
	return f, nil
}

// List gives the names and sizes kept under key; no bytes leave Redis.
func (rf *RedisFiles) List(ctx context.Context, key string) ([]RefundFile, error) {
	return rf.fields(ctx, key, "m:", func(id, v string) (RefundFile, bool) {
		size, rest, _ := strings.Cut(v, " ")
		sum, name, ok := strings.Cut(rest, " ")
		n, err := strconv.Atoi(size)
		return RefundFile{ID: id, Name: name, Size: n, Sum: sum}, ok && err == nil
	})
}

// Read gives the files kept under key with their bytes.
func (rf *RedisFiles) Read(ctx context.Context, key string) ([]RefundFile, error) {
	return rf.fields(ctx, key, "f:", func(id, v string) (RefundFile, bool) { return decodeFile(id, []byte(v)) })
}

// fields reads one field per id of key, in the order the ids were put.
func (rf *RedisFiles) fields(ctx context.Context, key, field string, decode func(id, v string) (RefundFile, bool)) ([]RefundFile, error) {
	keys := rf.fileKeys(key)
	c := rf.r.c
	if field == "f:" {
		c = rf.r.docs
	}
	ids, err := c.LRange(ctx, keys[1], 0, -1).Result()
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	fields := make([]string, len(ids))
	for i, id := range ids {
		fields[i] = field + id
	}
	vals, err := c.HMGet(ctx, keys[0], fields...).Result()
	if err != nil {
		return nil, err
	}
	var out []RefundFile
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue // removed meanwhile
		}
		if f, ok := decode(ids[i], s); ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// Remove forgets one file.
func (rf *RedisFiles) Remove(ctx context.Context, key, id string) error {
	return removeScript.Run(ctx, rf.r.c, rf.fileKeys(key), id).Err()
}

// Clear forgets every file of key.
func (rf *RedisFiles) Clear(ctx context.Context, key string) error {
	return clearScript.Run(ctx, rf.r.c, rf.fileKeys(key)).Err()
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
	data := b[4+n:]
	return RefundFile{ID: id, Name: string(b[4 : 4+n]), Size: len(data), Data: data}, true
}
