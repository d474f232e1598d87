package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
)

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

var errNotFound = errors.New("sandbox: not found")

const schema = `
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seq (id INTEGER PRIMARY KEY AUTOINCREMENT);
INSERT INTO seq(id) SELECT 500000 WHERE NOT EXISTS (SELECT 1 FROM seq);
CREATE TABLE IF NOT EXISTS clients (
	guid       TEXT PRIMARY KEY,
	phone      TEXT NOT NULL UNIQUE,
	fio        TEXT NOT NULL,
	email      TEXT NOT NULL DEFAULT '',
	birthdate  TEXT NOT NULL DEFAULT '',
	gender     TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	demo       INTEGER NOT NULL DEFAULT 0
);
-- codes keeps only a salted hash of the current code of each phone.
CREATE TABLE IF NOT EXISTS codes (
	phone      TEXT PRIMARY KEY,
	salt       BLOB NOT NULL,
	hash       BLOB NOT NULL,
	expires_at INTEGER NOT NULL,
	attempts   INTEGER NOT NULL DEFAULT 0
);
-- outbox is the sandbox's stand-in for the SMS operator: the plaintext of
-- the last code sent to each phone, for /sandbox/sms/{digits}.
CREATE TABLE IF NOT EXISTS outbox (
	phone   TEXT PRIMARY KEY,
	code    TEXT NOT NULL,
	sent_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
	hash       TEXT PRIMARY KEY,
	client     TEXT NOT NULL REFERENCES clients(guid) ON DELETE CASCADE,
	expires_at INTEGER NOT NULL
);
-- orders holds every customer order as its wire JSON plus the columns the
-- sandbox filters on. kind: glk, pavilion, room, aqua, hotel.
CREATE TABLE IF NOT EXISTS orders (
	kind     TEXT NOT NULL,
	id       TEXT NOT NULL,
	client   TEXT NOT NULL,
	start_at TEXT NOT NULL,
	end_at   TEXT NOT NULL,
	ref      TEXT NOT NULL DEFAULT '',
	canceled INTEGER NOT NULL DEFAULT 0,
	refunded INTEGER NOT NULL DEFAULT 0,
	data     TEXT NOT NULL,
	PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS orders_client ON orders(client, kind);
CREATE TABLE IF NOT EXISTS lessons (
	id      TEXT PRIMARY KEY,
	trainer TEXT NOT NULL,
	day     TEXT NOT NULL,
	data    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lessons_day ON lessons(trainer, day);
CREATE TABLE IF NOT EXISTS schedules (
	kind     TEXT NOT NULL,
	facility TEXT NOT NULL,
	day      TEXT NOT NULL,
	data     TEXT NOT NULL,
	PRIMARY KEY (kind, facility, day)
);
CREATE TABLE IF NOT EXISTS hotel_days (
	day  TEXT PRIMARY KEY,
	data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS aqua_sessions (
	id   TEXT PRIMARY KEY,
	day  TEXT NOT NULL,
	data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS aqua_sessions_day ON aqua_sessions(day);
CREATE TABLE IF NOT EXISTS refunds (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	path        TEXT NOT NULL,
	order_id    TEXT NOT NULL,
	received_at TEXT NOT NULL,
	form        TEXT NOT NULL,
	documents   TEXT NOT NULL,
	products    TEXT NOT NULL,
	body        TEXT NOT NULL
);
`

// inTx runs f in a transaction while holding the state lock.
func (s *Sandbox) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inTxLocked(ctx, f)
}

// orderTx runs f in a transaction on the order of kind with id; an order
// that is not there is the refusal msgNotFound.
func orderTx[O any](s *Sandbox, ctx context.Context, kind, id string, f func(ctx context.Context, tx *sql.Tx, m orderMeta, o O) error) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var o O
		m, err := getOrder(ctx, tx, kind, id, &o)
		if errors.Is(err, errNotFound) {
			return refusal(msgNotFound)
		}
		if err != nil {
			return err
		}
		return f(ctx, tx, m, o)
	})
}

func (s *Sandbox) inTxLocked(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func nextID(ctx context.Context, q querier) (string, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO seq DEFAULT VALUES`)
	if err != nil {
		return "", err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(id, 10), nil
}

func getMeta(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func setMeta(ctx context.Context, q querier, key, value string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// ---- orders ----

// Order kinds (the orders.kind column).
const (
	kindLesson   = "glk"
	kindPavilion = "pavilion"
	kindRoom     = "room"
	kindAqua     = "aqua"
	kindHotel    = "hotel"
)

// orderMeta is an order's row apart from its wire JSON.
type orderMeta struct {
	Kind     string
	ID       string
	Client   string
	Start    string // ISO, resort zone
	End      string // ISO, resort zone
	Ref      string // lesson id (glk), facility id (rents), session id (aqua)
	Canceled bool
	Refunded bool
}

func putOrder(ctx context.Context, q querier, m orderMeta, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO orders(kind, id, client, start_at, end_at, ref, canceled, refunded, data)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(kind, id) DO UPDATE SET client = excluded.client, start_at = excluded.start_at,
			end_at = excluded.end_at, ref = excluded.ref, canceled = excluded.canceled,
			refunded = excluded.refunded, data = excluded.data`,
		m.Kind, m.ID, m.Client, m.Start, m.End, m.Ref, m.Canceled, m.Refunded, string(data))
	return err
}

const orderCols = `kind, id, client, start_at, end_at, ref, canceled, refunded, data`

func scanOrder(sc interface{ Scan(...any) error }, v any) (orderMeta, error) {
	var m orderMeta
	var data string
	if err := sc.Scan(&m.Kind, &m.ID, &m.Client, &m.Start, &m.End, &m.Ref, &m.Canceled, &m.Refunded, &data); err != nil {
		return m, err
	}
	return m, json.Unmarshal([]byte(data), v)
}

// getOrder loads one order into v; errNotFound if there is none.
func getOrder(ctx context.Context, q querier, kind, id string, v any) (orderMeta, error) {
	row := q.QueryRowContext(ctx, `SELECT `+orderCols+` FROM orders WHERE kind = ? AND id = ?`, kind, id)
	m, err := scanOrder(row, v)
	if errors.Is(err, sql.ErrNoRows) {
		return m, errNotFound
	}
	return m, err
}

type stored[T any] struct {
	Meta  orderMeta
	Order T
}

// listOrders is a client's orders of one kind, by start ascending.
func listOrders[T any](ctx context.Context, q querier, kind, client string) ([]stored[T], error) {
	rows, err := q.QueryContext(ctx, `SELECT `+orderCols+` FROM orders WHERE kind = ? AND client = ?
		ORDER BY start_at, id`, kind, client)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []stored[T]
	for rows.Next() {
		var o T
		m, err := scanOrder(rows, &o)
		if err != nil {
			return nil, err
		}
		out = append(out, stored[T]{m, o})
	}
	return out, rows.Err()
}

// ---- reference data rows (JSON in a data column) ----

func getRow(ctx context.Context, q querier, v any, query string, args ...any) error {
	var data string
	err := q.QueryRowContext(ctx, query, args...).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(data), v)
}

// getRows reads rows of one JSON column into Ts.
func getRows[T any](ctx context.Context, q querier, query string, args ...any) ([]T, error) {
	return scanRows(ctx, q, func(rows *sql.Rows) (T, error) {
		var data string
		var v T
		if err := rows.Scan(&data); err != nil {
			return v, err
		}
		return v, json.Unmarshal([]byte(data), &v)
	}, query, args...)
}

// scanRows reads every row of query with scan.
func scanRows[T any](ctx context.Context, q querier, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
