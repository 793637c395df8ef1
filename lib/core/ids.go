package core

import (
	"crypto/rand"
	"encoding/binary"
	"io"
	"strings"
	"sync"
	"time"
)

// ID kinds. The prefix makes an identifier self-describing in logs and
// JSONL ("ses_…" is a session, "tsk_…" a task) without a lookup.
const (
	KindSession   = "ses"
	KindTask      = "tsk"
	KindAttempt   = "att"
	KindOperation = "op"
	KindEvent     = "evt"
	KindRequest   = "req"
	KindGrant     = "grt"
	KindProject   = "prj"
	KindMessage   = "msg"
	KindArtifact  = "art"
	KindObserve   = "obs"
	KindInstance  = "ins"
)

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// IDGen produces time-ordered identifiers: 48 bits of milliseconds followed
// by 80 random bits, Crockford base32 encoded (26 characters, sortable as
// strings). Within one millisecond the random part is incremented, so IDs
// from one generator are strictly increasing even when the clock stalls or
// steps backwards.
type IDGen struct {
	mu      sync.Mutex
	now     func() time.Time
	entropy io.Reader
	lastMS  uint64
	last    [10]byte
}

// NewIDGen returns a generator. now and entropy may be nil (wall clock,
// crypto/rand); tests pass fixed ones.
func NewIDGen(now func() time.Time, entropy io.Reader) *IDGen {
	if now == nil {
		now = time.Now
	}
	if entropy == nil {
		entropy = rand.Reader
	}
	return &IDGen{now: now, entropy: entropy}
}

var defaultGen = NewIDGen(nil, nil)

// NewID returns a fresh identifier of the given kind from the process-wide
// generator, e.g. NewID(KindTask) → "tsk_01J…".
func NewID(kind string) string { return defaultGen.New(kind) }

// New returns the next identifier with the kind prefix.
func (g *IDGen) New(kind string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	ms := uint64(g.now().UnixMilli())
	if ms <= g.lastMS {
		ms = g.lastMS
		incr(&g.last)
	} else {
		if _, err := io.ReadFull(g.entropy, g.last[:]); err != nil {
			// Entropy failure must not produce duplicates: fall back to
			// incrementing the previous random part.
			incr(&g.last)
		}
		g.lastMS = ms
	}
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[0:8], ms<<16)
	copy(raw[6:], g.last[:])
	return kind + "_" + encode(raw)
}

func incr(b *[10]byte) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i]++
		if b[i] != 0 {
			return
		}
	}
}

// encode writes 128 bits as 26 base32 characters (the first carries 3 bits).
func encode(raw [16]byte) string {
	var sb strings.Builder
	sb.Grow(26)
	hi := binary.BigEndian.Uint64(raw[0:8])
	lo := binary.BigEndian.Uint64(raw[8:16])
	for i := 25; i >= 0; i-- {
		shift := uint(i * 5)
		var v uint64
		switch {
		case shift >= 64:
			v = hi >> (shift - 64)
		case shift+5 > 64:
			v = lo>>shift | hi<<(64-shift)
		default:
			v = lo >> shift
		}
		sb.WriteByte(crockford[v&31])
	}
	return sb.String()
}

// IDKind returns the prefix of an identifier, or "" when it has none.
func IDKind(id string) string {
	if i := strings.IndexByte(id, '_'); i > 0 {
		return id[:i]
	}
	return ""
}

// ValidID reports whether id has the form kind_<26 base32 chars>.
func ValidID(id, kind string) bool {
	if !strings.HasPrefix(id, kind+"_") {
		return false
	}
	body := id[len(kind)+1:]
	if len(body) != 26 {
		return false
	}
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(crockford, body[i]) < 0 {
			return false
		}
	}
	return true
}
