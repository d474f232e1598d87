package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// migrations turn a database of schema version i (SQLite's user_version)
// into one of version i+1; the database is at len(migrations) after New.
// A data folder from before versioning holds version 0 with the tables of
// the first step already there, which is why every step of that one says
// IF NOT EXISTS. Add steps at the end; never change one that has shipped.
var migrations = []string{
	schema,
}

// ErrNewerData is the error of New on a data folder written by a newer
// build: its database has a schema this build does not know, and reading
// or changing it could lose what it holds.
var ErrNewerData = errors.New("sandbox: the data folder was written by a newer version")

// migrate brings the database to the newest schema, one step per
// transaction, or refuses a database newer than this build.
func (s *Sandbox) migrate(ctx context.Context) error {
	have, err := schemaVersion(ctx, s.db)
	if err != nil {
		return fmt.Errorf("sandbox: read schema version: %w", err)
	}
	if have > len(migrations) {
		return fmt.Errorf("%w (schema %d, this build knows up to %d): run a newer bin/lk on it, or point LK_DATA_DIR at another folder", ErrNewerData, have, len(migrations))
	}
	for v := have; v < len(migrations); v++ {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return err
			}
			// PRAGMA takes no bound parameters; v is this build's own number.
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1))
			return err
		})
		if err != nil {
			return fmt.Errorf("sandbox: schema %d to %d: %w", v, v+1, err)
		}
	}
	return nil
}

func schemaVersion(ctx context.Context, q querier) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}
