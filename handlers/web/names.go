package web

import (
	"sync"
	"time"
)

// nameKept bounds both the profile reads per customer for the shell and how
// late a name changed at the resort shows on every page.
const nameKept = 5 * time.Minute

// Names are the customers' first names by client id, for every page's shell.
type Names struct {
	mu sync.Mutex
	m  map[string]keptName
}

type keptName struct {
	name string
	at   time.Time
}

func (n *Names) Get(guid string, now time.Time) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	k, ok := n.m[guid]
	if !ok || now.Sub(k.at) >= nameKept || now.Before(k.at) {
		return "", false
	}
	return k.name, true
}

func (n *Names) Put(guid, name string, now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.m == nil {
		n.m = map[string]keptName{}
	}
	if len(n.m) >= 4096 { // memory follows the customers of the last minutes
		for g, k := range n.m {
			if now.Sub(k.at) >= nameKept || now.Before(k.at) {
				delete(n.m, g)
			}
		}
	}
	n.m[guid] = keptName{name, now}
}
