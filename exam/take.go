package exam

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/cores"
	"github.com/anynt/anynt/internal/stats"
	"github.com/anynt/anynt/random"
)

// Item is one environment of a test, with what the examinee is given of it.
type Item struct {
	Test   int    // which test it belongs to, from 1
	Number int    // its place in its test, from 1
	Name   string // a file's name, or lambda-one:SEED/N
	Env    *env.Env
	// Source is the text Env was loaded from, so that a test can be kept
	// (package study stores it) and given again exactly.
	Source string
	// Steps bounds the interactions; the test time τ bounds them too.
	Steps int
	// Seed decides the environment's random choices in episode e through
	// env.EpisodeSeed(Seed, e): every examinee meets the same ones.
	Seed uint64
	// Complexity is the figure the test orders its items by: K_approx for
	// Λ_one (the papers' figure), the description length in bits otherwise.
	Complexity float64
	// Bits is the description length (docs/complexity.md); KApprox the zlib
	// length of Good and Evil's pattern, 0 when they run a program.
	Bits    float64
	KApprox int
	Cells   int
}

// Examinee is an agent under test: its name and how to make a fresh one,
// or the process of an agent outside anynt.
type Examinee struct {
	Name string
	New  agent.Factory
	// Process, when not nil, is an agent outside anynt (Outside: package
	// agentproto's *Process), which takes the items one after another on
	// its one process (a batch of them at once when it speaks batches)
	// and is timed for real: its measured response times replace the
	// pace. New is then unused.
	Process Outside
}

// Examinees looks up the named agents (agent.Lookup), with s for those that
// have settings; a name it does not know is an error naming every agent.
func Examinees(names []string, s agent.Settings) ([]Examinee, error) {
	xs := make([]Examinee, len(names))
	for i, name := range names {
		f, err := agent.Lookup(name, s)
		if err != nil {
			return nil, err
		}
		xs[i] = Examinee{Name: name, New: f}
	}
	return xs, nil
}

// Score names the payoff of Hernández-Orallo (2010a) that scores an exercise.
type Score string

// The payoffs an exercise can be scored by (package aggregate).
const (
	ScoreDiminishing Score = "diminishing" // v̌‖τ, the default
	ScorePerCycle    Score = "per-cycle"   // v‖τ, the Λ_one average
	ScoreDiscounted  Score = "discounted"  // V|γ|τ
	ScorePerSecond   Score = "per-second"  // ω‖τ
	ScoreSum         Score = "sum"         // V↑τ
)

// Scores lists the payoffs by name.
var Scores = []Score{ScoreDiminishing, ScorePerCycle, ScoreDiscounted, ScorePerSecond, ScoreSum}

// Of reads the payoff out of values.
func (s Score) Of(v aggregate.Values) float64 {
	switch s {
	case ScorePerCycle:
		return v.PerCycle
	case ScoreDiscounted:
		return v.Discounted
	case ScorePerSecond:
		return v.PerSecond
	case ScoreSum:
		return v.Sum
	}
	return v.Diminishing
}

// Settings say how a test is given.
type Settings struct {
	// Episodes each examinee plays of each item (1 in the papers); the
	// item's score is their mean, with a confidence interval from 2 on.
	Episodes int
	// Pace draws the simulated delay before each action of a built-in
	// agent.
	Pace Pace
	// Tau is the test time of an item, in seconds: the item stops at Tau or
	// after its Steps, whichever comes first. 0 gives each item the time an
	// agent keeping the pace needs for its steps, Steps × Pace.Mean(); an
	// agent outside anynt is then given the steps, each episode read at
	// its own end (Outcome.Tau).
	Tau float64
	// Lambda is the geometric discount of V|γ|τ, in (0, 1).
	Lambda float64
	// Score is the payoff that scores an item.
	Score Score
	// CurvePoints is the number of test times, evenly spaced up to τ, at
	// which the anytime curves are read.
	CurvePoints int
	// ContinueAfterFault goes on to the next item, on a new process, after
	// the fault of an agent outside anynt; false stops the test at the
	// faulted item.
	ContinueAfterFault bool
	// Stop, when not nil, stops the test once it is closed (anynt closes
	// it on a signal): the built-in agents play no further episode, and
	// Take gives the items every examinee took whole. An item is given up
	// whole or kept whole, so what is measured of it does not depend on
	// when Stop came. An agent outside anynt is stopped by its
	// process instead (agentproto's Process.Interrupt); after that, the
	// built-in agents still take the items it took, so that the report
	// compares them on the same items.
	Stop <-chan struct{} `json:"-"`
}

// DefaultSettings give one episode an item at one action a second, scored
// by v̌‖τ.
var DefaultSettings = Settings{Episodes: 1, Pace: Pace{Model: "constant", A: 1}, Lambda: 0.9, Score: ScoreDiminishing, CurvePoints: 20}

// Ceilings of the settings, so that a typo cannot start a test that never
// ends or fills memory.
const (
	MaxEpisodes    = 1_000_000
	MaxCurvePoints = 1000
	// MaxTau bounds a test time, in seconds (about 31,700 years).
	MaxTau = 1e12
	// MinDelay and MaxDelay bound a pace's delays, in seconds: the clock
	// counts microseconds, and a million steps of MaxDelay fit in MaxTau.
	MinDelay, MaxDelay = 1e-6, 1e6
)

// Validate reports a setting out of its range.
func (s Settings) Validate() error {
	switch {
	case s.Episodes < 1 || s.Episodes > MaxEpisodes:
		return fmt.Errorf("episodes is %d; it must be 1 to %d", s.Episodes, MaxEpisodes)
	case !(s.Tau == 0 || s.Tau >= MinDelay && s.Tau <= MaxTau):
		// Below a microsecond, the clock's tick, τ would round to 0 and
		// silently become the pace's time.
		return fmt.Errorf("tau is %v; it must be 0 (the pace's time) or %g to %g seconds", s.Tau, MinDelay, float64(MaxTau))
	case !(s.Lambda > 0 && s.Lambda < 1):
		return fmt.Errorf("%w; it is %v", aggregate.ErrLambda, s.Lambda)
	case s.CurvePoints < 1 || s.CurvePoints > MaxCurvePoints:
		return fmt.Errorf("curve points is %d; it must be 1 to %d", s.CurvePoints, MaxCurvePoints)
	}
	for _, sc := range Scores {
		if s.Score == sc {
			return s.Pace.validate()
		}
	}
	return fmt.Errorf("no payoff %q (the payoffs: %s)", s.Score, ScoreNames())
}

// ScoreNames lists the payoffs' names, comma-separated, for help and
// errors.
func ScoreNames() string {
	names := make([]string, len(Scores))
	for i, s := range Scores {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// Pace is a model of the time a simulated agent takes before each action.
type Pace struct {
	// Model is constant (A seconds), uniform (between A and B) or
	// exponential (of mean A).
	Model string
	A, B  float64
}

// ParsePace reads constant:D, uniform:A:B or exponential:MEAN, in seconds; a
// bare number is constant.
func ParsePace(s string) (Pace, error) {
	parts := strings.Split(s, ":")
	if len(parts) == 1 {
		parts = []string{"constant", parts[0]}
	}
	p := Pace{Model: parts[0]}
	want := map[string]int{"constant": 1, "uniform": 2, "exponential": 1}[p.Model]
	if want == 0 {
		return Pace{}, fmt.Errorf("pace %q: no model %q (constant:D, uniform:A:B, exponential:MEAN)", s, p.Model)
	}
	if len(parts)-1 != want {
		return Pace{}, fmt.Errorf("pace %q: %s takes %d number(s)", s, p.Model, want)
	}
	nums := make([]float64, want)
	for i, t := range parts[1:] {
		x, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return Pace{}, fmt.Errorf("pace %q: %q is not a number of seconds", s, t)
		}
		nums[i] = x
	}
	p.A = nums[0]
	if want == 2 {
		p.B = nums[1]
	}
	return p, p.validate()
}

func (p Pace) validate() error {
	ok := func(x float64) bool { return x >= MinDelay && x <= MaxDelay }
	switch {
	case p.Model == "uniform" && !(ok(p.A) && ok(p.B) && p.A <= p.B):
		return fmt.Errorf("pace %s: the bounds must be %g ≤ A ≤ B ≤ %g seconds", p, MinDelay, MaxDelay)
	case p.Model != "uniform" && !ok(p.A):
		return fmt.Errorf("pace %s: the delay must be %g to %g seconds", p, MinDelay, MaxDelay)
	case p.Model != "constant" && p.Model != "uniform" && p.Model != "exponential":
		return fmt.Errorf("pace %s: no such model", p)
	}
	return nil
}

// String writes the pace as ParsePace reads it.
func (p Pace) String() string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	if p.Model == "uniform" {
		return p.Model + ":" + g(p.A) + ":" + g(p.B)
	}
	return p.Model + ":" + g(p.A)
}

// Mean is the mean delay, in seconds.
func (p Pace) Mean() float64 {
	if p.Model == "uniform" {
		return (p.A + p.B) / 2
	}
	return p.A
}

// draw draws one delay; never 0, so that times increase.
func (p Pace) draw(rng *random.Rand) float64 {
	switch p.Model {
	case "uniform":
		return p.A + (p.B-p.A)*rng.Float64()
	case "exponential":
		return max(p.A*rng.ExpFloat64(), math.SmallestNonzeroFloat64)
	}
	return p.A
}

// Outcome is what one examinee did on one item.
type Outcome struct {
	Item  int // index into the items
	Agent string
	// Tau is the item's test time τ: Settings.Tau, or the pace's time
	// for its steps. An agent outside anynt given no test time, and a
	// person (Played), are given the steps instead, and each episode is
	// read at its own τ, when it ended (itemPlay.episodeTau); Tau is then
	// the mean of the episodes' τ.
	Tau    float64
	Score  float64 // the mean over episodes of the chosen payoff at τ
	CI95   [2]float64
	Scores []float64 // each episode's
	// Values is every payoff at τ, as Hernández-Orallo (2010a) defines it,
	// the mean over episodes; its Tau is τ. An episode whose steps ran out
	// before τ counts the time from its last action to τ: ω‖τ divides by τ
	// and v̌‖τ keeps n* = ⌊n_τ·t_{n_τ}/τ⌋ rewards.
	Values aggregate.Values
	// AtEnd is every payoff read when each episode ended instead, the
	// mean over episodes: at its last action when its steps ran out
	// before τ (the test stopped it then), at τ otherwise. Its Tau is the
	// mean of those times. It is the figure of a test that does not hold
	// the time after the last step against the agent.
	AtEnd aggregate.Values
	// Curve is every payoff at CurvePoints test times up to τ, means over
	// episodes, each read at its own test time as Values is at τ (an
	// episode read at its own τ, at the same fraction of it).
	Curve   []aggregate.Values
	Stopped int // episodes in which the agent stopped before its steps
	// Cut counts the episodes that τ ended before their steps: the next
	// action would have come after τ (for an agent outside anynt, its
	// answer did, measured).
	Cut int
	// Fault is the fault of an agent outside anynt (Timed.Fault),
	// or why a built-in agent did not play as it should (agent.Optimal
	// could not plan), nil when it behaved. The faulted episode is the last one played and
	// Scores holds the episodes played; its run ended with the fault, and
	// its payoffs are read at τ, as for an agent that stopped acting.
	Fault error
	// Horizon is the fewest interactions a planner looked ahead in the
	// item's episodes (env.Horizoner: agent.Optimal past its budget for
	// an exact plan), where its score is a lower bound on the optimum
	// rather than the optimum; 0 when every episode was planned exactly,
	// and for agents that do not plan.
	Horizon int
	// Times are the measured response times of an agent outside anynt,
	// over the item's episodes; zero for a built-in agent.
	Times Times
}

// AgentError is Take's error when an agent outside anynt faulted, a
// built-in agent failed to play as it should (Outcome.Fault), or
// Settings.Stop stopped the test (then Faults holds ErrStopped): the
// outcomes are still given, for the items played (the first Items of the
// test, for every examinee).
type AgentError struct {
	Faults []error
	Items  int // the items played before the test stopped, or all
}

func (e *AgentError) Error() string {
	msgs := make([]string, len(e.Faults))
	for i, f := range e.Faults {
		msgs[i] = f.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap gives the faults, for errors.Is and errors.As.
func (e *AgentError) Unwrap() []error { return e.Faults }

// ErrNoItems is Take's error for a test with nothing to take.
var ErrNoItems = errors.New("the test has no items")

// ErrStopped is among an AgentError's faults when Settings.Stop stopped
// the built-in agents before the last item.
var ErrStopped = errors.New("the test was stopped before its last item")

// Take gives every item to every examinee, Settings.Episodes times each,
// and returns the outcomes examinee by examinee, item by item. The result
// depends only on the arguments (and, for an agent outside anynt, on its
// real response times): every episode has its own seed, the same for every
// examinee (a paired design), and its own slot. progress, if not nil, is
// called after each outcome.
//
// Agents outside anynt go first, each alone on the machine (so that the
// test's own load does not slow their answers), taking the items in order
// on their process (in batches, several at once: takeInBatches); then the built-in agents take the items on all cores.
// When an agent outside anynt faults, the error is an *AgentError and the
// outcomes are still given: under ContinueAfterFault for every item, else
// for the items up to the faulted one, which every examinee then takes.
func Take(items []Item, examinees []Examinee, s Settings, progress func(done, total int)) ([]Outcome, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(items) == 0 || len(examinees) == 0 {
		return nil, ErrNoItems
	}
	for _, it := range items {
		// Steps bounds the work, and the default τ, steps × the pace's
		// mean in ticks, stays below MaxTau only up to MaxSteps.
		if it.Env == nil || it.Steps < 1 || it.Steps > MaxSteps {
			return nil, fmt.Errorf("item %s: %d steps; an item needs an environment and 1 to %d steps", it.Name, it.Steps, MaxSteps)
		}
	}
	n := len(items) // the items every examinee takes
	out := make([]Outcome, len(items)*len(examinees))
	done := 0
	report := func() {
		done++
		if progress != nil {
			progress(done, n*len(examinees))
		}
	}
	var faults []error
	var inside []int
	for a, x := range examinees {
		if x.Process == nil {
			inside = append(inside, a)
			continue
		}
		var fs []error
		if x.Process.Batched() {
			n, fs = takeInBatches(items[:n], x, s, out[a*len(items):], report)
		} else {
			n, fs = takeInOrder(items[:n], x, s, out[a*len(items):], report)
		}
		faults = append(faults, fs...)
	}
	// The built-in agents take the items item by item (every agent the
	// first, then the second, ...), so that when Stop comes the items
	// every agent took are a prefix of the test, as they are after an
	// agent outside anynt is interrupted; which worker plays which item
	// does not change its outcome. After an interruption, Stop is closed
	// already and not heeded: the built-in agents take the items the
	// agent outside anynt took.
	stop := s.Stop
	if slices.ContainsFunc(faults, func(f error) bool { return errors.Is(f, ErrInterrupted) }) {
		stop = nil
	}
	taken := make([]bool, len(inside)*n)
	cores.Each(len(inside)*n, newScratch, func(w *scratch, k int) {
		a := inside[k%len(inside)]
		o, ok := takeItem(items, k/len(inside), examinees[a], s, stop, w)
		out[a*len(items)+k/len(inside)], taken[k] = o, ok
	}, func(int) { report() }) // one call at a time
	if k := slices.Index(taken, false); k >= 0 {
		n = k / len(inside)
		faults = append(faults, ErrStopped)
	}
	for _, a := range inside {
		for _, o := range out[a*len(items) : a*len(items)+n] {
			if o.Fault != nil {
				faults = append(faults, o.Fault)
			}
		}
	}
	if n < len(items) {
		kept := make([]Outcome, 0, n*len(examinees))
		for a := range examinees {
			kept = append(kept, out[a*len(items):a*len(items)+n]...)
		}
		out = kept
	}
	if len(faults) > 0 {
		return out, &AgentError{Faults: faults, Items: n}
	}
	return out, nil
}

// takeInOrder gives the items to an agent outside anynt one after another
// and returns how many it took and its faults. After a fault it stops,
// unless the settings say to go on with a new process; the end of the
// test's time for the agent stops it in any case.
func takeInOrder(items []Item, x Examinee, s Settings, slots []Outcome, done func()) (int, []error) {
	var faults []error
	w := newScratch()
	for i := range items {
		slots[i], _ = takeItem(items, i, x, s, nil, w)
		done()
		f := slots[i].Fault
		if f == nil {
			continue
		}
		faults = append(faults, f)
		if !s.ContinueAfterFault || errors.Is(f, ErrTestTimeout) || errors.Is(f, ErrInterrupted) {
			return i + 1, faults
		}
		if i+1 < len(items) {
			if err := x.Process.Restart(); err != nil {
				return i + 1, append(faults, err)
			}
		}
	}
	return len(items), faults
}

// scratch is what a worker of Take lends each item it plays: an
// episode's interactions and the tally's sums, which the outcome does not
// keep. They were a fifth of the bytes a Λ_one test allocated.
type scratch struct {
	run   aggregate.Run
	curve []aggregate.Average
}

func newScratch() *scratch { return &scratch{} }

// takeItem plays the episodes of one examinee on one item. It gives up
// the item (false) when stop is closed before its last episode: a test
// with many episodes an item stops within an episode, not an item.
func takeItem(items []Item, i int, x Examinee, s Settings, stop <-chan struct{}, w *scratch) (Outcome, bool) {
	ip := newItemPlay(items, i, x, s, w)
	player := env.NewPlayer(ip.it.Env) // not in ip, whose contents escape: it stays on the stack
	for e := range s.Episodes {
		select {
		case <-stop:
			w.curve = ip.t.curve // back to the worker
			return Outcome{}, false
		default:
		}
		var a env.Agent
		var timed Timed
		if x.Process != nil {
			timed = x.Process.Episode(ip.exercise(e))
			a = timed
		} else {
			a = x.New()
		}
		var end float64
		var how ending
		w.run, end, how = play(player, a, ip.seed(e), ip.it.Steps, ip.tau, s.Pace, s.Score, s.Lambda, w.run[:0])
		var times Times
		var fault error
		if timed != nil {
			times, fault = timed.Times(), timed.Fault()
		} else if f, ok := a.(env.Failer); ok && f.Err() != nil {
			fault = fmt.Errorf("%s on %s, episode %d: %w", x.Name, ip.it.Name, e, f.Err())
		}
		if h, ok := a.(env.Horizoner); ok && h.Horizon() > 0 && (ip.o.Horizon == 0 || h.Horizon() < ip.o.Horizon) {
			ip.o.Horizon = h.Horizon()
		}
		if ip.record(e, w.run, end, how, times, fault) {
			break
		}
	}
	return ip.finish(), true
}

// itemPlay is one examinee's play of one item, episode after episode:
// takeItem plays its episodes through play, takeInBatches steps them in a
// slot of a batch; both record each episode here, which scores them.
type itemPlay struct {
	it  Item
	s   Settings
	w   *scratch
	tau float64
	o   Outcome
	t   tally
	// ownTau: an agent outside anynt given no test time is given the
	// steps, as a person is (Played), and each episode is read at its own
	// τ, when it ended; latest is the latest such end so far, the τ of an
	// episode ended by a fault.
	ownTau bool
	latest float64
}

// newItemPlay readies item i for x, with w's buffers.
func newItemPlay(items []Item, i int, x Examinee, s Settings, w *scratch) itemPlay {
	it := items[i]
	tau := itemTau(it, s)
	return itemPlay{it: it, s: s, w: w, tau: tau, t: newTally(s, w.curve),
		o:      Outcome{Item: i, Agent: x.Name, Tau: tau, Scores: make([]float64, s.Episodes), Curve: make([]aggregate.Values, s.CurvePoints)},
		ownTau: x.Process != nil && s.Tau == 0}
}

// seed is episode e's seed, the same for every examinee.
func (ip *itemPlay) seed(e int) uint64 { return env.EpisodeSeed(ip.it.Seed, e) }

// exercise is episode e as an agent outside anynt is told of it.
func (ip *itemPlay) exercise(e int) EpisodeInfo {
	return EpisodeInfo{Name: ip.it.Name, Episode: e, Steps: ip.it.Steps, Seed: ip.it.Seed}
}

// record counts episode e, its run ended at end as how says, with the
// response times and the fault of an agent outside anynt; it reports
// whether the item is over (a fault ends it).
func (ip *itemPlay) record(e int, run aggregate.Run, end float64, how ending, times Times, fault error) bool {
	switch how {
	case stoppedItself:
		ip.o.Stopped++
	case cutByTau:
		ip.o.Cut++
	}
	tau := ip.tau
	if ip.ownTau {
		tau = ip.episodeTau(end, how)
		end = tau
	}
	ip.o.Scores[e] = ip.t.add(run, end, tau)
	ip.o.Times.Merge(times)
	if fault != nil {
		ip.o.Fault = fault
		ip.o.Scores = ip.o.Scores[:e+1]
		return true
	}
	return e == ip.s.Episodes-1
}

// episodeTau is the τ of an episode of an agent given the steps: when it
// ended, as a built-in agent keeping a constant pace does its last action
// at its τ, so that each episode is scored over its own time and not over
// the idle time of a slower one. An episode ended by a fault (the item's
// last: a fault ends the item) has no end of its own; it is read at the
// latest end of the item's other episodes, the time the agent took for
// the steps, its idle time counted as an agent's that stopped acting, or
// at the pace's time when it is the first.
func (ip *itemPlay) episodeTau(end float64, how ending) float64 {
	if how == faulted {
		if ip.latest > 0 {
			return ip.latest
		}
		return ip.tau
	}
	ip.latest = max(ip.latest, end)
	return end
}

// finish scores the item's episodes and gives its outcome; the scratch's
// buffers go back to their worker.
func (ip *itemPlay) finish() Outcome {
	defer func() { ip.w.curve = ip.t.curve }()
	if ip.ownTau && len(ip.o.Scores) > 0 {
		ip.o.Tau = ip.t.taus / float64(len(ip.o.Scores))
	}
	ip.t.finish(&ip.o)
	return ip.o
}

// tally sums an item's episodes into its outcome: the payoffs at τ, when
// each episode ended, and along the anytime curve.
type tally struct {
	s     Settings
	atTau aggregate.Average
	atEnd aggregate.Average
	ends  float64 // the sum of the episodes' ends
	taus  float64 // the sum of the episodes' τ
	curve []aggregate.Average
}

// newTally starts a tally in curve, whose array it reuses when it is long
// enough.
func newTally(s Settings, curve []aggregate.Average) tally {
	curve = slices.Grow(curve[:0], s.CurvePoints)[:s.CurvePoints]
	clear(curve)
	return tally{s: s, curve: curve}
}

// add counts one episode's run, which ended at end, in a test of time tau,
// and returns its score: the chosen payoff at tau.
func (t *tally) add(run aggregate.Run, end, tau float64) float64 {
	v := values(run, tau, t.s.Lambda)
	t.atTau.Add(v)
	atEnd := v // an episode that ran to τ ends there: read it once
	if end != tau {
		atEnd = values(run, end, t.s.Lambda)
	}
	t.atEnd.Add(atEnd)
	t.ends += end
	t.taus += tau
	for k := range t.curve {
		t.curve[k].Add(values(run, curveTau(tau, k, t.s.CurvePoints), t.s.Lambda))
	}
	return t.s.Score.Of(v)
}

// finish writes the means into o, whose Tau and Scores are set.
func (t *tally) finish(o *Outcome) {
	o.Values = t.atTau.Values()
	o.Values.Tau = o.Tau
	o.AtEnd = t.atEnd.Values()
	if len(o.Scores) > 0 {
		o.AtEnd.Tau = t.ends / float64(len(o.Scores))
	}
	for k := range t.curve {
		o.Curve[k] = t.curve[k].Values()
		o.Curve[k].Tau = curveTau(o.Tau, k, t.s.CurvePoints)
	}
	o.Score, o.CI95 = stats.MeanCI(o.Scores)
}

// Played scores runs played outside Take, such as a person's (package
// study), as Take scores an agent outside anynt given no test time: each
// run is one episode of item i, its interactions at the times they were
// performed, in seconds from the episode's start, and each is read at its
// own τ, its last interaction: a person is given the steps, not a test
// time, so the time after their last click is not held against them, nor
// a slower run's. The times are first put on Take's clock (whole
// microseconds, each at least one after the one before), so that the
// curve's last point counts the last interaction exactly. s must be valid
// (Settings.Validate); its Episodes and Pace are not used.
func Played(item int, agent string, runs []aggregate.Run, s Settings) Outcome {
	o := Outcome{Item: item, Agent: agent, Scores: make([]float64, len(runs)), Curve: make([]aggregate.Values, s.CurvePoints)}
	t := newTally(s, nil)
	for e, run := range runs {
		gridded := make(aggregate.Run, len(run))
		var at int64
		for i, x := range run {
			at = max(ticks(x.T), at+1)
			gridded[i] = aggregate.Interaction{T: seconds(at), Reward: x.Reward}
		}
		o.Scores[e] = t.add(gridded, seconds(at), seconds(at))
	}
	if len(runs) > 0 {
		o.Tau = t.taus / float64(len(runs))
	}
	t.finish(&o)
	return o
}

// curveTau is the test time of point k (from 0) of a curve of points
// points up to tau, tau·(k+1)/points, computed on the clock's grid: its
// whole ticks are exact integers, so a point that falls on an action's
// time equals that time (seconds of the same ticks) and counts the action,
// which tau·((k+1)/points) in floating point can miss by an ulp
// (0.003 × 1/3 = 0.0029999999999999996); the fraction of a tick left over
// keeps the points increasing, and the last point is tau exactly. The
// product is split into quotient and remainder so that it cannot overflow
// (limit ≤ 10¹⁸ ticks, points ≤ MaxCurvePoints).
func curveTau(tau float64, k, points int) float64 {
	limit, p, n := ticks(tau), int64(points), int64(k+1)
	q, r := limit/p, limit%p
	whole, rest := q*n+r*n/p, r*n%p
	if rest == 0 {
		return seconds(whole)
	}
	return (float64(whole) + float64(rest)/float64(p)) / ticksPerSecond
}

// play runs one episode in simulated physical time: before each action
// the pace draws a delay, which a Paced agent may change; the delay of an
// agent outside anynt is its measured response time instead, known only
// once it has answered, so an answer that comes after tau has moved the
// environment but counts for nothing. The episode stops after steps
// actions, when the next action would come after tau, or at a fault.
// The reward of an action is counted with it, at its time, since the
// environment answers at once (docs/aggregation.md). end is when the
// episode ended: the last action's time when the steps ran out first,
// since then the test stopped the agent, tau otherwise, when the agent ran
// out of time or stopped of its own accord (Outcome.AtEnd reads it there).
// The clock counts whole microseconds (ticks), so that times are exact
// sums and compare with τ exactly (see ticks). score and lambda say what
// scores the episode, for a planner.
func play(p *env.Player, a env.Agent, seed uint64, steps int, tau float64, pace Pace, score Score, lambda float64, run aggregate.Run) (_ aggregate.Run, end float64, how ending) {
	ep := p.Episode(a, seed)
	paced, _ := a.(agent.Paced)
	timed, _ := a.(Timed)
	if _, ok := a.(env.Planner); ok {
		// A planner (agent optimal) plans for the payoff at τ of the
		// interactions it will have: keeping the pace, those the clock
		// fits before τ, at times the episode's seed decides, so that the
		// payoff weighs each reward by a known weight (payoffWeights).
		// Choosing its own pace, it cannot know them: it plans the steps
		// for their mean reward.
		w := env.MeanWeights(steps)
		if paced == nil && timed == nil {
			w = payoffWeights(score, paceTimes(seed, steps, tau, pace), tau, lambda)
		}
		ep.Plan(w)
	}
	c := newClock(seed, tau, pace)
	reward := 0.0
	end = seconds(c.limit)
	for i := range steps {
		if timed != nil {
			reward = ep.Interact()
			if timed.Fault() != nil {
				how = faulted
				break
			}
			dt, ok := answerTime(timed.Took(), c.t, c.limit)
			if !ok {
				how = cutByTau
				break
			}
			c.t += dt
		} else {
			d := c.draw()
			if paced != nil {
				d = paced.Delay(d, reward)
			}
			var ok bool
			if how, ok = c.advance(d); !ok {
				break
			}
			reward = ep.Interact()
		}
		run = append(run, aggregate.Interaction{T: seconds(c.t), Reward: reward})
		if i == steps-1 {
			end = seconds(c.t)
		}
	}
	ep.End()
	return run, end, how
}

// clock is an episode's simulated time, t ticks of limit, and the stream
// its pace draws delays from, seeded by the episode's seed: for an agent
// that keeps the pace, the times of its actions are the same whatever it
// does (Bounds relies on it).
type clock struct {
	rng      *random.Rand
	pace     Pace
	t, limit int64
}

func newClock(seed uint64, tau float64, pace Pace) clock {
	return clock{rng: random.New(seed, 0x7ace), pace: pace, limit: ticks(tau)}
}

// draw draws the pace's next delay.
func (c *clock) draw() float64 { return c.pace.draw(c.rng) }

// advance moves the clock on by a delay of d seconds, at least a tick, or
// says how the episode ends instead: the agent stopped acting (a delay of
// 0 or +Inf), or the next action would come after τ.
func (c *clock) advance(d float64) (ending, bool) {
	if !(d > 0) || math.IsInf(d, 1) {
		return stoppedItself, false
	}
	if d > MaxTau { // out of time: tau ≤ MaxTau; this keeps ticks(d) in range
		return cutByTau, false
	}
	dt := max(ticks(d), 1)
	if c.t+dt > c.limit {
		return cutByTau, false
	}
	c.t += dt
	return allSteps, true
}

// answerTime is the time an answer that took took seconds moves the
// clock, at t, on by: at least a tick; false when it came after limit.
func answerTime(took float64, t, limit int64) (int64, bool) {
	if took > MaxTau { // out of time: this keeps ticks(took) in range
		return 0, false
	}
	dt := max(ticks(took), 1)
	return dt, t+dt <= limit
}

// ending is how an episode of play ended.
type ending int

const (
	allSteps      ending = iota // its steps ran out first
	stoppedItself               // the agent stopped acting (a delay of 0 or +Inf)
	cutByTau                    // the next action would have come after τ
	faulted                     // an agent outside anynt faulted
)

// ticksPerSecond is the resolution of simulated time: a delay is rounded
// to whole microseconds, at least one. Times are then exact integer sums,
// and seconds(t) is the double nearest to the decimal time, so a test time
// such as τ = 2.1 s equals the time of three actions 0.7 s apart, which a
// running sum of floats (2.0999999999999996) would put before it, costing
// the last reward under v̌‖τ. An int64 of microseconds spans 292,000
// years, far beyond MaxTau.
const ticksPerSecond = 1_000_000

func ticks(s float64) int64   { return int64(math.Round(s * ticksPerSecond)) }
func seconds(t int64) float64 { return float64(t) / ticksPerSecond }

// values reads every payoff of run at tau; Validate checked lambda.
func values(run aggregate.Run, tau, lambda float64) aggregate.Values {
	v, _ := run.At(tau, lambda)
	return v
}
