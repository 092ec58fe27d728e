package serveenv

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/anynt/anynt/env"
)

// Bounds of a vector environment (docs/protocol.md, "Vector
// environments"): one holds at most maxNumEnvs copies, and all the open
// environments together at most maxCopies (a single environment counts
// one), so that a client cannot make serve-env hold unbounded memory.
const (
	maxNumEnvs = 4096
	maxCopies  = 16384
)

// parallelFrom is the number of copies from which a vector step is shared
// among GOMAXPROCS goroutines. Below it one goroutine steps them all: on
// the 2-core virtual machine of the README, handing half a step to another
// goroutine and waiting for it costs 5–40 µs (a wake-up of the other
// core), more than stepping a few dozen small environments (0.3–0.5 µs
// each); BenchmarkVecStep measured the crossing (docs/protocol.md).
var parallelFrom = 512

// parallelResetFrom is the number of copies from which a reset's episode
// starts are shared among the goroutines: an episode's start costs 0.15–0.4
// ms (env.Player.Episode), so a hand-off pays for itself at a few copies.
var parallelResetFrom = 8

// autoreset is what a vector does with a copy whose episode ended, as
// Gymnasium 1.x's gymnasium.vector.AutoresetMode names it.
type autoreset int

const (
	// nextStep: the step after the one that ended a copy's episode resets
	// that copy (its action is ignored) and answers the first observation
	// of its next episode, reward 0.
	nextStep autoreset = iota
	// sameStep: the step that ends an episode answers the first
	// observation of the next one in its place, and the last observation
	// of the ended one in final_observations.
	sameStep
	// disabled: a copy whose episode ended is not stepped again until a
	// reset names it.
	disabled
)

var autoresetNames = []string{"next_step", "same_step", "disabled"}

// vecCopy is one copy of a vector: an episode under way of the exercise.
type vecCopy struct {
	player *env.Player
	// stream is the seed of the copy's episodes: episode i plays with
	// env.EpisodeSeed(stream, i).
	stream  uint64
	episode int // the episode under way; -1 before any reset
	// next is the episode a reset under way starts, -1 for none.
	next int
	ep   *env.Episode
	view *env.View
	step int  // interactions done in the episode
	over bool // truncated: the last step is done
}

// vector is a vector environment: copies of one exercise (one
// environment, exercise seed and alphabet, one number of steps) stepped
// together by one request. Its buffers are reused from step to step, so a
// step allocates nothing (an episode's start does).
type vector struct {
	env      *env.Env
	name     string
	steps    int
	seed     uint64 // the exercise's seed: it draws the alphabet
	alphabet env.Alphabet
	mode     autoreset
	copies   []vecCopy
	length   int // of every observation of the exercise

	obs       []byte    // the copies' observations, length bytes each, in copy order
	final     []byte    // same_step: the last observations of the episodes that ended
	rewards   []float64 // of the last step
	truncated []byte    // 1 where the last step ended the copy's episode
	actions   []int     // of the step under way

	scratch []byte // for base64's input: rewards, final observations
	pool    *vecPool
	// stepFn and resetFn are the pool's jobs, made once: a method value
	// made at each step would allocate.
	stepFn, resetFn func(lo, hi int)
}

// newVector makes n copies of an exercise, their streams seed+i, before
// any episode.
func newVector(e *env.Env, name string, steps int, seed uint64, n int, mode autoreset) *vector {
	v := &vector{
		env: e, name: name, steps: steps, seed: seed, mode: mode,
		alphabet:  env.ObservationAlphabet(e, seed),
		copies:    make([]vecCopy, n),
		rewards:   make([]float64, n),
		truncated: make([]byte, n),
		actions:   make([]int, n),
	}
	// Every observation of an environment has the same length (cells, the
	// objects and a marker an action): one look at an episode gives it.
	view, _ := env.NewPlayer(e).Episode(externalAgent{}, 0).Begin()
	v.length = len(view.Observation())
	v.obs = make([]byte, n*v.length)
	if mode == sameStep {
		v.final = make([]byte, n*v.length)
	}
	for i := range v.copies {
		v.copies[i] = vecCopy{player: env.NewPlayer(e), stream: seed + uint64(i), episode: -1, next: -1}
	}
	v.stepFn, v.resetFn = v.stepRange, v.resetRange
	if helpers := runtime.GOMAXPROCS(0) - 1; helpers > 0 && n >= min(parallelFrom, parallelResetFrom) {
		v.pool = newVecPool(helpers)
	}
	return v
}

// close stops the vector's helper goroutines.
func (v *vector) close() {
	if v.pool != nil {
		v.pool.stop()
		v.pool = nil
	}
}

// begin starts episode i of copy c.
func (v *vector) begin(c *vecCopy, episode int) {
	c.episode, c.step, c.over = episode, 0, false
	c.ep = c.player.Episode(externalAgent{}, env.EpisodeSeed(c.stream, episode))
	c.view, _ = c.ep.Begin() // a new episode has no interaction under way
}

// encode writes copy c's observation in the alphabet into row.
func (v *vector) encode(row []byte, c *vecCopy) {
	index := v.alphabet.Index
	for j, code := range c.view.Observation() {
		row[j] = byte(index[code]) // at most 256 symbols: codes are bytes
	}
}

// vecReset says what a reset of a vector does; nil fields are left out of
// the request.
type vecReset struct {
	seed         *uint64  // the exercise's seed: the alphabet, and streams seed+i
	episodeSeed  *uint64  // streams episodeSeed+i
	episodeSeeds []uint64 // one stream a copy
	episode      *int     // the episode every copy reset plays
	mask         []bool   // the copies to reset; all when nil
}

// reset starts episodes, as a reset request asks, and fills the
// observations. It checks everything before it changes anything.
func (v *vector) reset(r vecReset) error {
	n := len(v.copies)
	if r.episodeSeed != nil && r.episodeSeeds != nil {
		return fmt.Errorf("give \"episode_seed\" or \"episode_seeds\", not both")
	}
	if r.episodeSeeds != nil && len(r.episodeSeeds) != n {
		return fmt.Errorf("episode_seeds has %d seeds; the vector has %d copies, one seed each", len(r.episodeSeeds), n)
	}
	if r.mask != nil && len(r.mask) != n {
		return fmt.Errorf("mask has %d entries; the vector has %d copies, one each", len(r.mask), n)
	}
	// A new exercise seed is a new alphabet for every copy: a copy left
	// out of the reset would be read in another encoding mid-episode.
	if r.seed != nil && r.mask != nil && slices.Contains(r.mask, false) {
		return fmt.Errorf("a \"seed\" changes every copy's alphabet: reset them all (no mask, or a mask all true)")
	}
	if r.episode != nil && (*r.episode < 0 || *r.episode >= MaxEpisodes) {
		return fmt.Errorf("episode %d; it must be from 0 to %d", *r.episode, MaxEpisodes-1)
	}
	for i := range v.copies {
		c := &v.copies[i]
		if r.mask != nil && !r.mask[i] {
			continue
		}
		if r.episode == nil && r.seed == nil && r.episodeSeed == nil && r.episodeSeeds == nil && c.episode+1 >= MaxEpisodes {
			return fmt.Errorf("copy %d has played its last episode (%d): reset it with a seed or an episode", i, MaxEpisodes-1)
		}
	}
	if r.seed != nil && *r.seed != v.seed {
		v.seed = *r.seed
		v.alphabet = env.ObservationAlphabet(v.env, v.seed)
	}
	for i := range v.copies {
		c := &v.copies[i]
		if r.mask != nil && !r.mask[i] {
			// A copy not reset answers no reward and no truncation: its
			// last step's are in that step's answer.
			v.rewards[i], v.truncated[i] = 0, 0
			continue
		}
		episode := c.episode + 1
		switch {
		case r.episodeSeeds != nil:
			c.stream, episode = r.episodeSeeds[i], 0
		case r.episodeSeed != nil:
			c.stream, episode = *r.episodeSeed+uint64(i), 0
		case r.seed != nil:
			c.stream, episode = v.seed+uint64(i), 0
		}
		if r.episode != nil {
			episode = *r.episode
		}
		c.next = episode
		v.rewards[i], v.truncated[i] = 0, 0
	}
	if v.pool != nil && len(v.copies) >= parallelResetFrom {
		v.pool.run(len(v.copies), v.resetFn)
	} else {
		v.resetRange(0, len(v.copies))
	}
	return nil
}

// resetRange starts the episodes a reset asked of copies lo to hi−1 (their
// next) and writes the observations of those that have one.
func (v *vector) resetRange(lo, hi int) {
	for i := lo; i < hi; i++ {
		c := &v.copies[i]
		if c.next >= 0 {
			v.begin(c, c.next)
			c.next = -1
		}
		if c.ep != nil {
			v.encode(v.obs[i*v.length:(i+1)*v.length], c)
		}
	}
}

// step plays the actions of v.actions, one a copy, and fills the
// observations, rewards and truncations. It checks every action and copy
// before it steps any: an error steps nothing.
func (v *vector) step() error {
	n := len(v.env.Actions)
	for i := range v.copies {
		c := &v.copies[i]
		switch {
		case c.ep == nil:
			return fmt.Errorf("copy %d has no episode: reset the vector first", i)
		case c.over && v.mode == disabled:
			return fmt.Errorf("the episode of copy %d is over (truncated after %d steps) and autoreset is disabled: reset it", i, v.steps)
		}
		// Checked even where next_step ignores it: a bad action is the
		// client's fault whichever copy it is for.
		if a := v.actions[i]; a < 0 || a >= n {
			return fmt.Errorf("action %d of copy %d is not an action: an integer from 0 to %d", a, i, n-1)
		}
	}
	if v.pool == nil || len(v.copies) < parallelFrom {
		v.stepRange(0, len(v.copies))
		return nil
	}
	v.pool.run(len(v.copies), v.stepFn)
	return nil
}

// stepRange steps copies lo to hi−1; the helpers of the pool step their
// own ranges at the same time, each writing only its copies' rows.
func (v *vector) stepRange(lo, hi int) {
	l := v.length
	for i := lo; i < hi; i++ {
		c := &v.copies[i]
		row := v.obs[i*l : (i+1)*l]
		if c.over { // next_step: this step starts the next episode
			v.begin(c, c.episode+1)
			v.rewards[i], v.truncated[i] = 0, 0
			v.encode(row, c)
			continue
		}
		v.rewards[i], _ = c.ep.Finish(v.actions[i]) // checked in step
		c.step++
		// The observation after the step is the one the next interaction
		// shows; after the last step, the episode ends there.
		c.view, _ = c.ep.Begin()
		v.truncated[i] = 0
		if c.step == v.steps {
			c.ep.End()
			c.over = true
			v.truncated[i] = 1
			if v.mode == sameStep {
				v.encode(v.final[i*l:(i+1)*l], c)
				v.begin(c, c.episode+1)
			}
		}
		v.encode(row, c)
	}
}

// parseActions reads a step's "actions" into v.actions: a JSON array of
// integer literals, one a copy, or a string of base64 (standard, padded)
// of one byte a copy. It allocates nothing.
func (v *vector) parseActions(raw []byte) error {
	raw = trimSpace(raw)
	n := len(v.copies)
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		text := raw[1 : len(raw)-1]
		if bytes.IndexByte(text, '\\') >= 0 { // a JSON escape, such as PHP's \/ for /
			var unquoted string
			if err := json.Unmarshal(raw, &unquoted); err != nil {
				return fmt.Errorf("actions is not a JSON string (%v)", err)
			}
			text = []byte(unquoted)
		}
		v.scratch = v.scratch[:0]
		var err error
		v.scratch, err = base64.StdEncoding.AppendDecode(v.scratch, text)
		if err != nil {
			return fmt.Errorf("actions is not base64 (%v)", err)
		}
		if len(v.scratch) != n {
			return fmt.Errorf("actions has %d for %d copies: one action a copy", len(v.scratch), n)
		}
		for i, b := range v.scratch {
			v.actions[i] = int(b)
		}
		return nil
	}
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return fmt.Errorf("actions must be a list of %d integers, one a copy, or a base64 string of %d bytes", n, n)
	}
	body := trimSpace(raw[1 : len(raw)-1])
	count := 0
	for len(body) > 0 {
		end := 0
		for end < len(body) && body[end] != ',' {
			end++
		}
		item := trimSpace(body[:end])
		a, ok := jsonInt(item)
		if !ok {
			return fmt.Errorf("action %s of copy %d is not an integer literal", quoteShort(item), count)
		}
		if count < n {
			v.actions[count] = a
		}
		count++
		if end == len(body) {
			break
		}
		body = body[end+1:]
		if len(trimSpace(body)) == 0 {
			return fmt.Errorf("actions is not a list of integers: a comma ends it")
		}
	}
	if count != n {
		return fmt.Errorf("actions has %d for %d copies: one action a copy", count, n)
	}
	return nil
}

// jsonInt reads a JSON integer literal (no fraction, no exponent, no
// leading zero) that fits an int.
func jsonInt(b []byte) (int, bool) {
	digits := b
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (len(digits) > 1 && digits[0] == '0') {
		return 0, false
	}
	x := 0
	for _, d := range digits {
		if d < '0' || d > '9' {
			return 0, false
		}
		if x > (math.MaxInt-9)/10 {
			x = math.MaxInt // out of every range; still an integer
			continue
		}
		x = x*10 + int(d-'0')
	}
	if b[0] == '-' {
		x = -x
	}
	return x, true
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// quoteShort quotes a piece of a request for an error, cut at 40 bytes.
func quoteShort(b []byte) string {
	if len(b) > 40 {
		return strconv.Quote(string(b[:40])) + "…"
	}
	return strconv.Quote(string(b))
}

// appendObservations appends the answer to a reset or a step of vector
// id: the observations, rewards and truncations, each as base64 of its
// little-endian bytes; a reset's answer adds what it reset.
func (v *vector) appendObservations(b []byte, id int, reset bool) []byte {
	b = append(b, `{"type":"observations","env":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `,"observations":"`...)
	b = base64.StdEncoding.AppendEncode(b, v.obs)
	b = append(b, `","rewards":"`...)
	v.scratch = v.scratch[:0]
	for _, r := range v.rewards {
		v.scratch = binary.LittleEndian.AppendUint64(v.scratch, math.Float64bits(r))
	}
	b = base64.StdEncoding.AppendEncode(b, v.scratch)
	b = append(b, `","truncated":"`...)
	b = base64.StdEncoding.AppendEncode(b, v.truncated)
	b = append(b, '"')
	if v.mode == sameStep && !reset {
		v.scratch = v.scratch[:0]
		l := v.length
		for i, t := range v.truncated {
			if t == 1 {
				v.scratch = append(v.scratch, v.final[i*l:(i+1)*l]...)
			}
		}
		if len(v.scratch) > 0 {
			b = append(b, `,"final_observations":"`...)
			b = base64.StdEncoding.AppendEncode(b, v.scratch)
			b = append(b, '"')
		}
	}
	if reset {
		b = append(b, `,"num_envs":`...)
		b = strconv.AppendInt(b, int64(len(v.copies)), 10)
		b = append(b, `,"length":`...)
		b = strconv.AppendInt(b, int64(v.length), 10)
		b = append(b, `,"seed":`...)
		b = strconv.AppendUint(b, v.seed, 10)
		b = append(b, `,"episode_seeds":[`...)
		for i := range v.copies {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(b, v.copies[i].stream, 10)
		}
		b = append(b, `],"episodes":[`...)
		for i := range v.copies {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v.copies[i].episode), 10)
		}
		b = append(b, `],"steps":[`...)
		for i := range v.copies {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v.copies[i].step), 10)
		}
		b = append(b, `],"alphabet":[`...)
		for i, name := range v.alphabet.Names(v.env) {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, name)
		}
		b = append(b, ']')
	}
	return append(b, "}\n"...)
}

// vecPool is helper goroutines that do parts of a vector's work (its
// steps, its episode starts) while the goroutine that answers does the
// first part: each part is a range of copies, and the copies' episodes are
// independent (each has its own Player; the Env is only read).
type vecPool struct {
	work []chan vecJob
	done chan struct{}
}

// vecJob is a part of the work: do(lo, hi).
type vecJob struct {
	do     func(lo, hi int)
	lo, hi int
}

func newVecPool(helpers int) *vecPool {
	p := &vecPool{work: make([]chan vecJob, helpers), done: make(chan struct{}, helpers)}
	for k := range p.work {
		p.work[k] = make(chan vecJob, 1)
		go func(work <-chan vecJob) {
			for j := range work {
				j.do(j.lo, j.hi)
				p.done <- struct{}{}
			}
		}(p.work[k])
	}
	return p
}

// run does do over n copies in 1 + helpers parts of nearly equal size and
// returns when every part is done.
func (p *vecPool) run(n int, do func(lo, hi int)) {
	parts := len(p.work) + 1
	for k := range p.work {
		p.work[k] <- vecJob{do, (k + 1) * n / parts, (k + 2) * n / parts}
	}
	do(0, n/parts)
	for range p.work {
		<-p.done
	}
}

func (p *vecPool) stop() {
	for _, w := range p.work {
		close(w)
	}
}

// derefEnv is the env a request names, 0 (no environment) when none.
func derefEnv(req *request) int {
	if req.Env == nil {
		return 0
	}
	return *req.Env
}

// makeVector answers a make with num_envs: sv is the exercise it made.
func (s *Server) makeVector(req *request, sv *served) {
	n := 1
	if req.NumEnvs != nil {
		n = *req.NumEnvs
	}
	if n < 1 || n > maxNumEnvs {
		s.fail(nil, fmt.Sprintf("make: num_envs is %d; it must be from 1 to %d", n, maxNumEnvs))
		return
	}
	if s.copies+n > maxCopies {
		s.fail(nil, fmt.Sprintf("make: %d more copies would make %d; serve-env holds at most %d in all its environments: close some first", n, s.copies+n, maxCopies))
		return
	}
	mode := nextStep
	if req.Autoreset != nil {
		mode = autoreset(slices.Index(autoresetNames, *req.Autoreset))
		if mode < 0 {
			s.fail(nil, fmt.Sprintf("make: autoreset %q; it must be one of %s", *req.Autoreset, strings.Join(autoresetNames, ", ")))
			return
		}
	}
	v := newVector(sv.env, sv.name, sv.steps, sv.seed, n, mode)
	id := s.nextID
	s.nextID++
	s.vectors[id] = v
	s.copies += n
	s.write(struct {
		made
		NumEnvs   int    `json:"num_envs"`
		Autoreset string `json:"autoreset"`
		Length    int    `json:"length"`
	}{made{"made", id, v.name, len(v.env.Actions), v.env.Actions, len(v.env.BaseSymbols()), v.env.Space.Cells(), v.steps, v.seed}, n, autoresetNames[mode], v.length})
}

func (s *Server) resetVector(req *request, v *vector) {
	err := v.reset(vecReset{seed: req.Seed, episodeSeed: req.EpisodeSeed, episodeSeeds: req.EpisodeSeeds, episode: req.Episode, mask: req.Mask})
	if err != nil {
		s.fail(req.Env, "reset: "+err.Error())
		return
	}
	s.answer = v.appendObservations(s.answer[:0], *req.Env, true)
	s.w.Write(s.answer)
}

func (s *Server) stepVector(req *request, v *vector, line []byte) {
	if req.Actions == nil {
		s.fail(req.Env, "step needs the \"actions\" of a vector environment, one a copy: "+quote(line))
		return
	}
	if err := v.parseActions(req.Actions); err != nil {
		s.fail(req.Env, "step: "+err.Error())
		return
	}
	if err := v.step(); err != nil {
		s.fail(req.Env, "step: "+err.Error())
		return
	}
	s.answer = v.appendObservations(s.answer[:0], *req.Env, false)
	s.w.Write(s.answer)
	s.vectorStepped = true
}

// closeVectors stops every vector's helpers, at the end of the requests.
func (s *Server) closeVectors() {
	for _, v := range s.vectors {
		v.close()
	}
}

// fastVectorStep answers the step of a vector in the form clients send it
// — an object of exactly the keys "type" ("step"), "env" and "actions" (a
// base64 string or a list of integer literals), each once, in any order,
// spelled in lower case, with no escapes — without the JSON decoder, which
// allocates for every request: the hot path of a vector allocates
// nothing. It reports false, having answered nothing, for any other line,
// and for any fault of the step too, so that the decoder's path reads it
// and answers it as it answers every request: the two paths cannot
// disagree, since this one takes only lines whose meaning is plain.
func (s *Server) fastVectorStep(line []byte) bool {
	if !fastSteps || !s.greeted {
		return false
	}
	var typ, env, actions []byte
	p := skipSpace(line, 0)
	if p >= len(line) || line[p] != '{' {
		return false
	}
	p = skipSpace(line, p+1)
	for {
		key, q, ok := plainString(line, p)
		if !ok {
			return false
		}
		q = skipSpace(line, q)
		if q >= len(line) || line[q] != ':' {
			return false
		}
		q = skipSpace(line, q+1)
		var value []byte
		switch string(key) { // no allocation: the conversion is only compared
		case "type", "actions":
			if q < len(line) && line[q] == '[' {
				end := q + 1
				for end < len(line) && line[end] != ']' {
					if c := line[end]; c != ',' && c != '-' && c != ' ' && (c < '0' || c > '9') {
						return false
					}
					end++
				}
				if end >= len(line) || string(key) != "actions" {
					return false
				}
				value, q = line[q:end+1], end+1
				break
			}
			_, r, ok := plainString(line, q)
			if !ok {
				return false
			}
			value, q = line[q:r], r
		case "env":
			end := q
			for end < len(line) && line[end] >= '0' && line[end] <= '9' {
				end++
			}
			if end == q || end-q > 9 || (end-q > 1 && line[q] == '0') {
				return false
			}
			value, q = line[q:end], end
		default:
			return false
		}
		switch {
		case string(key) == "type" && typ == nil:
			typ = value
		case string(key) == "env" && env == nil:
			env = value
		case string(key) == "actions" && actions == nil:
			actions = value
		default:
			return false // a key twice: the decoder's path says so
		}
		q = skipSpace(line, q)
		if q < len(line) && line[q] == ',' {
			p = skipSpace(line, q+1)
			continue
		}
		if q >= len(line) || line[q] != '}' || skipSpace(line, q+1) != len(line) {
			return false
		}
		break
	}
	if string(typ) != `"step"` || env == nil || actions == nil {
		return false
	}
	id := 0
	for _, d := range env {
		id = id*10 + int(d-'0')
	}
	v := s.vectors[id]
	if v == nil || v.parseActions(actions) != nil || v.step() != nil {
		return false // answered by the decoder's path, with its error
	}
	s.answer = v.appendObservations(s.answer[:0], id, false)
	s.w.Write(s.answer)
	s.vectorStepped = true
	return true
}

// pollWindow is how long the server polls its input for the next request
// after answering a vector step, before it blocks in a read. A process
// that blocks sleeps, and on the 2-core virtual machine of the README an
// idle core takes 30–75 µs to wake it, more than a vector step of 16
// copies costs both sides together; polling, the next request is read as
// it comes. Measured from Python with 16 copies on an idle machine (load
// 1): 135,000 steps/s blocking, 223,000 polling (docs/protocol.md,
// "Throughput").
const pollWindow = 100 * time.Microsecond

// await polls in (a pipe, on Linux) for up to pollWindow after a vector
// step was answered, while the client has sent each of its last requests
// within the window: a client that thinks longer (a large network between
// steps) costs no polling, only its first miss.
func (s *Server) await(in io.Reader) {
	s.waitStart = time.Time{}
	if !s.vectorStepped {
		return
	}
	s.waitStart = time.Now()
	f, ok := in.(interface{ Fd() uintptr })
	if !ok || !s.quickClient {
		return
	}
	fd := f.Fd()
	for time.Since(s.waitStart) < pollWindow {
		if queued(fd) != 0 { // a request, the end of the input, or an fd that cannot tell
			return
		}
	}
}

// waited notes, after a read, whether the client's request came within
// the polling window of the last answer.
func (s *Server) waited() {
	if !s.waitStart.IsZero() {
		s.quickClient = time.Since(s.waitStart) < pollWindow
		s.waitStart = time.Time{}
	}
	s.vectorStepped = false
}

// fastSteps turns fastVectorStep on; the tests turn it off to compare
// its answers with the decoder's path.
var fastSteps = true

// plainString reads a JSON string at line[p] without escapes or control
// characters: its contents, and the position after its closing quote.
func plainString(line []byte, p int) (contents []byte, next int, ok bool) {
	if p >= len(line) || line[p] != '"' {
		return nil, p, false
	}
	for q := p + 1; q < len(line); q++ {
		switch c := line[q]; {
		case c == '"':
			return line[p+1 : q], q + 1, true
		case c == '\\' || c < 0x20:
			return nil, p, false
		}
	}
	return nil, p, false
}

// skipSpace skips JSON's white space from line[p].
func skipSpace(line []byte, p int) int {
	for p < len(line) && (line[p] == ' ' || line[p] == '\t' || line[p] == '\n' || line[p] == '\r') {
		p++
	}
	return p
}
