package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// setVersion writes user_version into the sandbox database of dir, as an
// older or newer build would have left it.
func setVersion(t *testing.T, dir string, v int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "sandbox.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA user_version = " + strconv.Itoa(v)); err != nil {
		t.Fatal(err)
	}
}

func TestSchemaVersionOfANewFolder(t *testing.T) {
	c := newClock()
	sb, err := New(Config{DataDir: t.TempDir(), Now: c.Now, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if v, err := schemaVersion(context.Background(), sb.db); err != nil || v != len(migrations) || v == 0 {
		t.Errorf("user_version %d (%v), want %d", v, err, len(migrations))
	}
}

// A folder from before versioning (user_version 0, tables there) is
// brought to the current schema and keeps its customers.
func TestSchemaOfAnOlderFolderIsMigrated(t *testing.T) {
	dir, c := t.TempDir(), newClock()
	sb, err := New(Config{DataDir: dir, Now: c.Now, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.db.Exec(`INSERT INTO clients(guid, phone, fio, created_at) VALUES('old-guid', '79005552233', 'Старый Клиент', '2026-01-01')`); err != nil {
		t.Fatal(err)
	}
	sb.Close()
	setVersion(t, dir, 0)

	sb, err = New(Config{DataDir: dir, Now: c.Now, Logger: quietLogger()})
	if err != nil {
		t.Fatalf("older folder refused: %v", err)
	}
	defer sb.Close()
	if v, _ := schemaVersion(context.Background(), sb.db); v != len(migrations) {
		t.Errorf("user_version %d after migrating, want %d", v, len(migrations))
	}
	var n int
	if err := sb.db.QueryRow(`SELECT count(*) FROM clients WHERE guid = 'old-guid'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the registered customer is gone after migrating: %d %v", n, err)
	}
}

// A folder written by a newer build is refused, with an error that says
// so, and left as it was.
func TestSchemaOfANewerFolderIsRefused(t *testing.T) {
	dir, c := t.TempDir(), newClock()
	sb, err := New(Config{DataDir: dir, Now: c.Now, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	sb.Close()
	newer := len(migrations) + 1
	setVersion(t, dir, newer)

	_, err = New(Config{DataDir: dir, Now: c.Now, Logger: quietLogger()})
	if !errors.Is(err, ErrNewerData) || !strings.Contains(err.Error(), "LK_DATA_DIR") {
		t.Fatalf("newer folder: %v, want ErrNewerData naming LK_DATA_DIR", err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "sandbox.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := schemaVersion(context.Background(), db); v != newer {
		t.Errorf("user_version %d after the refusal, want it left at %d", v, newer)
	}
}
