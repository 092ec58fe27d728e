package web

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// StartLimit bounds how fast POST /api/start opens sessions, the one
// request anyone who reaches the server may send without a session: each
// opens a session in the database, so a script that sends them as fast as
// the disk commits fills the database and the study's count of
// participants. Starts beyond the limit are refused with 429 Too Many
// Requests and a Retry-After header, and change nothing; the page shows
// the message, and the participant tries again.
type StartLimit struct {
	PerSecond float64 // sessions a second, sustained
	Burst     int     // sessions at once, after a quiet spell
}

// DefaultStartLimit lets a class of a hundred start at the same moment
// and ten more every second, while a script needs 1,000 s for 10,000
// sessions.
var DefaultStartLimit = StartLimit{PerSecond: 10, Burst: 100}

// bucket is a token bucket: Burst tokens, refilled at PerSecond, one
// taken by each start.
type bucket struct {
	mu     sync.Mutex
	limit  StartLimit
	tokens float64
	last   time.Time
	now    func() time.Time
}

func newBucket(l StartLimit, now func() time.Time) *bucket {
	if l.PerSecond <= 0 || l.Burst < 1 {
		l = DefaultStartLimit
	}
	return &bucket{limit: l, tokens: float64(l.Burst), last: now(), now: now}
}

// take takes a token and returns 0, or, when there is none, takes nothing
// and returns how long until one is there.
func (b *bucket) take() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.tokens = min(float64(b.limit.Burst), b.tokens+elapsed*b.limit.PerSecond)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return 0
	}
	return time.Duration((1 - b.tokens) / b.limit.PerSecond * float64(time.Second))
}

// limitStart refuses a start beyond the limit, with 429 and Retry-After
// in whole seconds, and says whether it did.
func (s *server) limitStart(w http.ResponseWriter, r *http.Request) bool {
	wait := s.starts.take()
	if wait == 0 {
		return false
	}
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	s.refuse(w, r, http.StatusTooManyRequests,
		fmt.Sprintf("too many people are starting the test at once; try again in %d s", secs))
	return true
}
