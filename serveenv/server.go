package serveenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
)

// Bounds of a server: a client cannot make it hold more environments,
// read longer lines or play longer episodes than these, whatever it sends.
const (
	MaxOpenEnvs = 1000
	MaxLine     = agentproto.MaxLine // bytes of a request, its newline excluded
	MaxSteps    = 10_000_000         // interactions of an episode, anynt run's bound
	MaxEpisodes = 1_000_000          // an episode's number is below it, anynt run's bound
	maxQuoted   = 200                // bytes of a bad line an error quotes
	// DefaultFileSeed is the exercise seed of an environment file made
	// without one: anynt run's default --seed.
	DefaultFileSeed = 1
	// DefaultFileSteps is the steps of an environment file made without
	// them: anynt run's default --steps.
	DefaultFileSteps = 1000
)

// Options are what a Server needs from the program it runs in.
type Options struct {
	// Version is the toolchain's version ("0.2.0-dev (…)"), named in the
	// hello's answer as every anynt output names it, and in the source of
	// a Λ_one exercise as anynt test writes it.
	Version string
	// Load reads an environment file. Errors of the file itself come as a
	// lang.ErrorList or a *lang.Error, which the answer lists one by one,
	// positioned; any other error is quoted as it is.
	Load func(path string) (*env.Env, error)
}

// request is any request; each type reads the fields it needs, and unknown
// fields are ignored (forward compatibility). Pointers tell a field left
// out from a zero.
type request struct {
	Type      string        `json:"type"`
	Protocol  *string       `json:"protocol"`
	Env       *int          `json:"env"`
	File      *string       `json:"file"`
	LambdaOne *lambdaOneRef `json:"lambda_one"`
	Steps     *int          `json:"steps"`
	Seed      *uint64       `json:"seed"`
	// EpisodeSeed picks the stream of episodes and keeps the exercise
	// (its alphabet): what a Gymnasium reset(seed) wants.
	EpisodeSeed *uint64 `json:"episode_seed"`
	Episode     *int    `json:"episode"`
	// Action is read as written, so that an error can quote a number
	// that is not an integer (2.5, "2") as the client sent it.
	Action *json.RawMessage `json:"action"`
	// Vector environments (1.1): make's copies and autoreset, reset's
	// seeds a copy and mask, step's actions (read by hand: the hot path).
	NumEnvs      *int            `json:"num_envs"`
	Autoreset    *string         `json:"autoreset"`
	EpisodeSeeds []uint64        `json:"episode_seeds"`
	Mask         []bool          `json:"mask"`
	Actions      json.RawMessage `json:"actions"`
}

// lambdaOneRef names an exercise of the Λ_one test: the test's seed (as
// anynt test --seed) and the exercise's number, 1 to 7.
type lambdaOneRef struct {
	Seed     *uint64 `json:"seed"`
	Exercise *int    `json:"exercise"`
}

// served is an open environment and its episode under way.
type served struct {
	env    *env.Env
	player *env.Player
	name   string
	steps  int
	// seed is the exercise's seed: it draws the alphabet.
	seed uint64
	// stream is the seed of the episodes: episode i plays with the
	// environment seed env.EpisodeSeed(stream, i). It is the exercise's
	// seed until a reset gives an episode_seed.
	stream   uint64
	alphabet env.Alphabet
	episode  int // the episode under way, or of the last reset; -1 before any
	ep       *env.Episode
	step     int  // interactions done in the episode
	over     bool // truncated: the last step is done
	view     *env.View
}

// Server answers requests; it is not safe for concurrent use (the protocol
// is one request, one answer, in order).
type Server struct {
	opts    Options
	w       *bufio.Writer
	envs    map[int]*served
	vectors map[int]*vector
	// vectorStepped says the request just answered was a vector's step;
	// waitStart is when its answer was flushed, and quickClient whether
	// the client's last request came within pollWindow of its answer
	// (await polls only for such a client).
	vectorStepped, quickClient bool
	waitStart                  time.Time
	copies                     int // of every open environment, a single one counting one
	nextID                     int
	greeted                    bool
	line                       int    // the number of the request being answered
	answer                     []byte // scratch for hand-written answers
	obs                        []int  // scratch for an encoded observation
}

// New returns a Server that writes its answers to out.
func New(out io.Writer, opts Options) *Server {
	return &Server{opts: opts, w: bufio.NewWriterSize(out, 64<<10), envs: map[int]*served{}, vectors: map[int]*vector{}, nextID: 1}
}

// ErrIO is the error of a failure to read the requests or write the
// answers: the client is gone, or closed its end early.
var ErrIO = errors.New("serve-env: input or output failed")

// Serve answers every request of in until its end, and returns nil there.
// Answers are flushed whenever no further request is already buffered, so
// that a client that waits for each answer gets it at once, and one that
// sends many requests ahead gets them in large writes. A hello of another
// major version is answered and ends Serve with an error wrapping
// agentproto.ErrVersion; a failure to read or write ends it with one
// wrapping ErrIO.
func (s *Server) Serve(in io.Reader) error {
	defer s.closeVectors() // their helper goroutines end with the requests
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		s.waited()
		if len(line) > 0 || tooLong || (err == nil) {
			s.line++
			if herr := s.handle(line, tooLong); herr != nil {
				s.w.Flush()
				return herr
			}
		}
		if err == io.EOF {
			return s.flush()
		}
		if err != nil {
			s.w.Flush()
			return fmt.Errorf("%w: reading requests: %w", ErrIO, err)
		}
		if r.Buffered() == 0 {
			if err := s.flush(); err != nil {
				return err
			}
			s.await(in)
		}
	}
}

func (s *Server) flush() error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("%w: writing answers: %w", ErrIO, err)
	}
	return nil
}

// readLine reads one line without its newline (and a carriage return
// before it). A line longer than MaxLine is read to its end and dropped:
// tooLong says so. At the end of the input, err is io.EOF and line holds
// what came after the last newline.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	var long []byte // the line so far, when it is longer than r's buffer
	size := 0
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		if err == bufio.ErrBufferFull {
			if size <= MaxLine+2 { // +2: "\r\n"
				long = append(long, chunk...)
			}
			continue
		}
		if long != nil && size <= MaxLine+2 {
			chunk = append(long, chunk...)
		}
		chunk = bytes.TrimSuffix(bytes.TrimSuffix(chunk, []byte("\n")), []byte("\r"))
		if size > MaxLine+2 || len(chunk) > MaxLine {
			return nil, true, err
		}
		return chunk, false, err
	}
}

// handle answers one request line; only a version mismatch is returned,
// every other fault is answered.
func (s *Server) handle(line []byte, tooLong bool) error {
	if tooLong {
		s.fail(nil, fmt.Sprintf("the request is longer than %d bytes", MaxLine))
		return nil
	}
	if s.fastVectorStep(line) {
		return nil
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		s.fail(nil, fmt.Sprintf("not a JSON object of the protocol (%v): %s", jsonProblem(err), quote(line)))
		return nil
	}
	if key, twice := agentproto.DuplicateKey(line); twice { // the decoder kept the last: no one meaning
		s.fail(nil, fmt.Sprintf("the key %q twice (keys are matched without regard to case): %s", key, quote(line)))
		return nil
	}
	if req.Type == "" {
		s.fail(nil, "a request needs a \"type\": "+quote(line))
		return nil
	}
	if req.Type == "hello" {
		return s.hello(&req)
	}
	if !s.greeted {
		s.fail(nil, fmt.Sprintf("say hello first ({\"type\":\"hello\",\"protocol\":%q}): %s", agentproto.Version, quote(line)))
		return nil
	}
	switch req.Type {
	case "make":
		s.make(&req)
	case "reset":
		s.reset(&req)
	case "step":
		s.step(&req, line)
	case "close":
		s.close(&req)
	default:
		s.fail(req.Env, fmt.Sprintf("unknown request type %q (hello, make, reset, step, close): %s", req.Type, quote(line)))
	}
	return nil
}

// jsonProblem says briefly what is wrong with a line that did not decode.
func jsonProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return "not an object"
		}
		return fmt.Sprintf("%s cannot be %s", typeErr.Field, typeErr.Value)
	}
	return err.Error()
}

// quote quotes a request line for an error, cut at maxQuoted bytes.
func quote(line []byte) string {
	if len(line) > maxQuoted {
		return strconv.Quote(string(line[:maxQuoted])) + "…"
	}
	return strconv.Quote(string(line))
}

func (s *Server) hello(req *request) error {
	if req.Protocol == nil {
		s.fail(nil, fmt.Sprintf("hello needs a \"protocol\" (this is %q)", agentproto.Version))
		return nil
	}
	if !agentproto.Compatible(*req.Protocol) {
		msg := fmt.Sprintf("protocol %q is not spoken here: serve-env speaks %q", *req.Protocol, agentproto.Version)
		s.fail(nil, msg)
		return fmt.Errorf("%w: %s", agentproto.ErrVersion, msg)
	}
	s.greeted = true
	s.write(struct {
		Type     string `json:"type"`
		Protocol string `json:"protocol"`
		Tool     string `json:"tool"`
	}{"hello", agentproto.Version, "anynt " + s.opts.Version})
	return nil
}

// made is the answer to make.
type made struct {
	Type    string `json:"type"`
	Env     int    `json:"env"`
	Name    string `json:"name"`
	Actions int    `json:"actions"`
	// ActionNames are the environment's names of the actions, the stay
	// action first, for a client that shows them.
	ActionNames []string `json:"action_names"`
	Symbols     int      `json:"symbols"`
	Cells       int      `json:"cells"`
	Steps       int      `json:"steps"`
	Seed        uint64   `json:"seed"`
}

func (s *Server) make(req *request) {
	if len(s.envs)+len(s.vectors) >= MaxOpenEnvs {
		s.fail(nil, fmt.Sprintf("make: %d environments are open, the most serve-env holds: close one first", MaxOpenEnvs))
		return
	}
	var sv *served
	switch {
	case req.File != nil && req.LambdaOne != nil:
		s.fail(nil, "make: give a \"file\" or a \"lambda_one\" exercise, not both")
		return
	case req.File != nil:
		// Only a regular file: a pipe or a device (/dev/stdin, a FIFO)
		// could block serve-env or read the client's own requests.
		if info, err := os.Stat(*req.File); err == nil && !info.Mode().IsRegular() {
			s.fail(nil, fmt.Sprintf("make: %s is not a regular file", *req.File))
			return
		}
		e, err := s.opts.Load(*req.File)
		if err != nil {
			s.fileFail(err)
			return
		}
		sv = &served{env: e, name: *req.File, steps: DefaultFileSteps, seed: DefaultFileSeed}
	case req.LambdaOne != nil:
		var err error
		if sv, err = lambdaOneExercise(req.LambdaOne, s.opts.Version); err != nil {
			s.fail(nil, "make: "+err.Error())
			return
		}
	default:
		s.fail(nil, "make: give a \"file\" or a \"lambda_one\" exercise ({\"seed\":1,\"exercise\":3})")
		return
	}
	if req.Steps != nil {
		if *req.Steps < 1 || *req.Steps > MaxSteps {
			s.fail(nil, fmt.Sprintf("make: steps is %d; it must be from 1 to %d", *req.Steps, MaxSteps))
			return
		}
		sv.steps = *req.Steps
	}
	if req.Seed != nil {
		sv.seed = *req.Seed
	}
	sv.stream = sv.seed
	if req.NumEnvs != nil || req.Autoreset != nil {
		s.makeVector(req, sv)
		return
	}
	if s.copies+1 > maxCopies {
		s.fail(nil, fmt.Sprintf("make: the open environments have %d copies, the most serve-env holds: close one first", s.copies))
		return
	}
	s.copies++
	sv.player = env.NewPlayer(sv.env)
	sv.alphabet = env.ObservationAlphabet(sv.env, sv.seed)
	sv.episode = -1
	id := s.nextID
	s.nextID++
	s.envs[id] = sv
	s.write(made{"made", id, sv.name, len(sv.env.Actions), sv.env.Actions, len(sv.env.BaseSymbols()), sv.env.Space.Cells(), sv.steps, sv.seed})
}

// lambdaOneExercise makes exercise k of the Λ_one test of a seed, from the
// items anynt test gives: the same environment, steps and seed.
func lambdaOneExercise(ref *lambdaOneRef, version string) (*served, error) {
	if ref.Seed == nil || ref.Exercise == nil {
		return nil, errors.New("lambda_one needs the test's \"seed\" and the \"exercise\", 1 to 7")
	}
	items, err := exam.LambdaOneItems(*ref.Seed, 1, version)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		if it.Number == *ref.Exercise {
			return &served{env: it.Env, name: it.Name, steps: it.Steps, seed: it.Seed}, nil
		}
	}
	return nil, fmt.Errorf("lambda_one exercise %d does not exist: a test has exercises 1 to %d", *ref.Exercise, len(items))
}

// fileFail answers a file that did not load, quoting every positioned
// error in the message and listing them in "errors".
func (s *Server) fileFail(err error) {
	var list lang.ErrorList
	var one *lang.Error
	var errs []string
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			errs = append(errs, e.Error())
		}
	case errors.As(err, &one):
		errs = []string{one.Error()}
	default:
		s.fail(nil, "make: "+err.Error())
		return
	}
	s.write(struct {
		Type    string   `json:"type"`
		Line    int      `json:"line"`
		Message string   `json:"message"`
		Errors  []string `json:"errors"`
	}{"error", s.line, "make: the file has errors:\n" + strings.Join(errs, "\n"), errs})
}

// lookup finds the environment a request names, or answers an error.
func (s *Server) lookup(req *request) *served {
	if req.Env == nil {
		s.fail(nil, req.Type+" needs the \"env\" that make gave")
		return nil
	}
	sv, ok := s.envs[*req.Env]
	if !ok {
		s.fail(req.Env, fmt.Sprintf("%s: no environment %d is open", req.Type, *req.Env))
		return nil
	}
	return sv
}

// externalAgent stands for the agent outside the process in an episode:
// it is given the views through Begin and answers through Finish, so the
// episode never asks it to act.
type externalAgent struct{}

func (externalAgent) Start(*env.Env, *random.Rand) {}
func (externalAgent) Act(*env.View) int            { return 0 }
func (externalAgent) End(float64)                  {}

// reset starts an episode: with a seed, episode 0 (or the one asked) of
// the exercise of that seed; with an episode seed, episode 0 (or the one
// asked) of that stream of episodes, in the same exercise; without
// either, the next episode of the stream (the first after make).
func (s *Server) reset(req *request) {
	if v := s.vectors[derefEnv(req)]; v != nil {
		s.resetVector(req, v)
		return
	}
	if req.EpisodeSeeds != nil || req.Mask != nil {
		s.fail(req.Env, "reset: episode_seeds and mask are for a vector environment (make with num_envs)")
		return
	}
	sv := s.lookup(req)
	if sv == nil {
		return
	}
	episode := sv.episode + 1
	if req.Seed != nil || req.EpisodeSeed != nil {
		episode = 0
	}
	if req.Episode != nil {
		episode = *req.Episode
	}
	if episode < 0 || episode >= MaxEpisodes {
		s.fail(req.Env, fmt.Sprintf("reset: episode %d; it must be from 0 to %d", episode, MaxEpisodes-1))
		return
	}
	if req.Seed != nil {
		if *req.Seed != sv.seed {
			sv.seed = *req.Seed
			sv.alphabet = env.ObservationAlphabet(sv.env, sv.seed)
		}
		sv.stream = sv.seed
	}
	if req.EpisodeSeed != nil {
		sv.stream = *req.EpisodeSeed
	}
	sv.episode, sv.step, sv.over = episode, 0, false
	sv.ep = sv.player.Episode(externalAgent{}, env.EpisodeSeed(sv.stream, episode))
	sv.view, _ = sv.ep.Begin() // a new episode has no interaction under way
	s.observation(*req.Env, sv, 0, true)
}

func (s *Server) step(req *request, line []byte) {
	if v := s.vectors[derefEnv(req)]; v != nil {
		s.stepVector(req, v, line)
		return
	}
	sv := s.lookup(req)
	if sv == nil {
		return
	}
	if req.Actions != nil && string(req.Actions) != "null" {
		s.fail(req.Env, "step: \"actions\" is for a vector environment (make with num_envs); this one takes one \"action\"")
		return
	}
	switch {
	case sv.ep == nil:
		s.fail(req.Env, fmt.Sprintf("step: environment %d has no episode: reset it first", *req.Env))
		return
	case sv.over:
		s.fail(req.Env, fmt.Sprintf("step: the episode of environment %d is over (truncated after %d steps): reset it", *req.Env, sv.steps))
		return
	case req.Action == nil:
		s.fail(req.Env, "step needs an \"action\": "+quote(line))
		return
	}
	n := len(sv.env.Actions)
	a, err := strconv.Atoi(string(*req.Action))
	if err != nil || a < 0 || a >= n {
		s.fail(req.Env, fmt.Sprintf("step: action %s is not an action of environment %d: an integer from 0 to %d", *req.Action, *req.Env, n-1))
		return
	}
	reward, _ := sv.ep.Finish(a) // Begin came before, and a is in range
	sv.step++
	// The observation after the step is the one the next interaction
	// shows; after the last step, the episode ends there.
	sv.view, _ = sv.ep.Begin()
	if sv.step == sv.steps {
		sv.over = true
		sv.ep.End()
	}
	s.observation(*req.Env, sv, reward, false)
}

// observation writes an observation answer by hand: it is the answer to
// every step, so it is built without reflection.
func (s *Server) observation(id int, sv *served, reward float64, reset bool) {
	s.obs = sv.alphabet.Encode(s.obs[:0], sv.view.Observation())
	b := append(s.answer[:0], `{"type":"observation","env":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `,"step":`...)
	b = strconv.AppendInt(b, int64(sv.step), 10)
	b = append(b, `,"observation":[`...)
	for i, x := range s.obs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	b = append(b, `],"reward":`...)
	b = strconv.AppendFloat(b, reward, 'g', -1, 64)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, sv.over)
	if reset {
		b = append(b, `,"seed":`...)
		b = strconv.AppendUint(b, sv.seed, 10)
		b = append(b, `,"episode_seed":`...)
		b = strconv.AppendUint(b, sv.stream, 10)
		b = append(b, `,"episode":`...)
		b = strconv.AppendInt(b, int64(sv.episode), 10)
		var names bytes.Buffer
		writeJSON(&names, sv.alphabet.Names(sv.env))
		b = append(b, `,"alphabet":`...)
		b = append(b, bytes.TrimSuffix(names.Bytes(), []byte("\n"))...)
	}
	b = append(b, "}\n"...)
	s.answer = b
	s.w.Write(b)
}

func (s *Server) close(req *request) {
	if v := s.vectors[derefEnv(req)]; v != nil {
		v.close()
		delete(s.vectors, *req.Env)
		s.copies -= len(v.copies)
		s.write(struct {
			Type string `json:"type"`
			Env  int    `json:"env"`
		}{"closed", *req.Env})
		return
	}
	if s.lookup(req) == nil {
		return
	}
	delete(s.envs, *req.Env)
	s.copies--
	s.write(struct {
		Type string `json:"type"`
		Env  int    `json:"env"`
	}{"closed", *req.Env})
}

// fail answers an error: the message, the request's line number and, when
// the request named one, its environment.
func (s *Server) fail(id *int, msg string) {
	s.write(struct {
		Type    string `json:"type"`
		Line    int    `json:"line"`
		Env     *int   `json:"env,omitempty"`
		Message string `json:"message"`
	}{"error", s.line, id, msg})
}

// write writes one answer as a line of JSON; a write error shows at the
// next flush.
func (s *Server) write(v any) { writeJSON(s.w, v) }

// writeJSON writes v as one line of JSON, symbols as they are (not
// escaped): the encoding error of a value this package built cannot
// happen, and a write error shows at the next flush.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}
