package exam

import (
	"errors"
	"fmt"
	"math"

	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/cores"
	"github.com/anynt/anynt/random"
)

// MaxLevel is the adaptive test's top level: level ℓ gives an exercise of
// ℓ + 2 cells, and 9 cells is both the end of the papers' Λ_one ladder and
// about where drawing a valid space stops being cheap (a space of two
// actions is valid only as one cycle through every cell, which a uniform
// draw gives with probability (n−1)!/nⁿ: once in about 10⁴ draws at 9
// cells, 2×10⁵ at 12).
const MaxLevel = 7

// Ceilings of the adaptive settings, so that a typo cannot start a test
// that never ends or fills memory.
const (
	// MaxAdaptiveInteractions bounds the interactions the test time holds
	// at the pace's mean, and those of any one environment.
	MaxAdaptiveInteractions = 1_000_000
	// MaxAdaptiveEnvironments bounds the environments the test time holds.
	MaxAdaptiveEnvironments = 100_000
)

// AdaptiveSettings say how the adaptive anytime test is given
// (docs/tests.md, "The adaptive anytime test", gives each rule's reasons).
type AdaptiveSettings struct {
	// Tau is the whole test's time, in simulated seconds. The test gives
	// environments while the next one fits; its score at any τ' ≤ Tau is
	// what it would report if stopped then (AdaptiveResult.At).
	Tau float64
	// First is the time of the first environment and Growth what each
	// next one gets more, up to Longest: environment k (from 0) gets
	// min(First + k·Growth, Longest). Longest may be +Inf (no cap).
	First, Growth, Longest float64
	// Up and Down are the staircase's thresholds: the level goes up one
	// after an environment scored at least Up, down one after a score
	// below Down, and stays otherwise.
	Up, Down float64
	// Pace draws the delay before each action of a built-in agent.
	Pace Pace
	// Lambda is the geometric discount of V|γ|τ, in (0, 1).
	Lambda float64
	// Score is the payoff that scores an environment.
	Score Score
	// Ladder gives the environments of each level; nil is Λ_one's ladder
	// of cells (LambdaOneLadder).
	Ladder Ladder
	// Stop, when not nil, stops the test once it is closed (anynt closes
	// it on a signal): no examinee starts a further environment, and
	// TakeAdaptive gives every examinee's test as it stood at the latest
	// test time all the stopped ones reached, as At reads an anytime test
	// stopped then. Every examinee meets the same schedule of times, so
	// each result is then exactly the test of that length (its interval
	// included), whenever the stop came.
	Stop <-chan struct{}
	// Progress, when not nil, is told the environments done so far, over
	// every examinee, after each one; the calls come one at a time.
	Progress func(done int)
}

// ladder is the settings' ladder, Λ_one's by default.
func (s AdaptiveSettings) ladder() Ladder {
	if s.Ladder == nil {
		return LambdaOneLadder{}
	}
	return s.Ladder
}

// DefaultAdaptive is the test of docs/tests.md: 5,000 s, environments of
// 20 s, 22 s, 24 s… up to 150 s, up at 0.5, down below 0.25, one action a
// second, scored by v̌‖τ.
var DefaultAdaptive = AdaptiveSettings{Tau: 5000, First: 20, Growth: 2, Longest: 150, Up: 0.5, Down: 0.25,
	Pace: Pace{Model: "constant", A: 1}, Lambda: 0.9, Score: ScoreDiminishing}

// Validate reports a setting out of its range.
func (s AdaptiveSettings) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if err := s.Pace.validate(); err != nil {
		return err
	}
	switch {
	case !finite(s.Tau) || s.Tau <= 0:
		return fmt.Errorf("the test time is %v; it must be a positive number of seconds", s.Tau)
	case !finite(s.First) || s.First < s.Pace.Mean():
		return fmt.Errorf("the first environment's time is %v s; it must be at least the pace's mean delay, %v s, to hold an action", s.First, s.Pace.Mean())
	case s.First > s.Tau:
		return fmt.Errorf("the first environment's time, %v s, is more than the test time, %v s: no environment would be given", s.First, s.Tau)
	case !finite(s.Growth) || s.Growth < 0:
		return fmt.Errorf("the time step is %v s; it must be 0 or more seconds", s.Growth)
	case math.IsNaN(s.Longest) || s.Longest < s.First:
		return fmt.Errorf("the longest environment's time is %v s; it must be at least the first's, %v s (+Inf for no cap)", s.Longest, s.First)
	case !(s.Down >= -1 && s.Down < s.Up && s.Up <= 1):
		return fmt.Errorf("the thresholds are down %v and up %v; they must be -1 ≤ down < up ≤ 1 (scores lie in [-1, 1])", s.Down, s.Up)
	case s.Tau/s.Pace.Mean() > MaxAdaptiveInteractions:
		return fmt.Errorf("the test time holds %.6g interactions at the pace's mean; at most %d", s.Tau/s.Pace.Mean(), MaxAdaptiveInteractions)
	case s.Environments() > MaxAdaptiveEnvironments:
		return fmt.Errorf("the test time holds more than %d environments; give each more time", MaxAdaptiveEnvironments)
	case !(s.Lambda > 0 && s.Lambda < 1):
		return fmt.Errorf("%w; it is %v", aggregate.ErrLambda, s.Lambda)
	}
	switch s.Score {
	case ScoreDiminishing, ScorePerCycle, ScoreDiscounted:
		return nil
	case ScoreSum, ScorePerSecond:
		// The thresholds, the weight ℓ/7 and the score's range assume a
		// payoff in [−1, 1] whatever the time and the pace; a total grows
		// with the environment's time, a rate with the pace.
		return fmt.Errorf("the payoff %s is not an average; the adaptive test's thresholds and score are on the scale of one reward: use diminishing, per-cycle or discounted", s.Score)
	}
	return fmt.Errorf("no payoff %q (the payoffs: %s)", s.Score, ScoreNames())
}

// Environments is the number of environments the test time holds, counted
// up to MaxAdaptiveEnvironments + 1.
func (s AdaptiveSettings) Environments() int {
	n, t := 0, int64(0)
	for n <= MaxAdaptiveEnvironments {
		d, ok := s.time(n, t)
		if !ok {
			break
		}
		t += d
		n++
	}
	return n
}

// time is the time environment k (from 0) is given, min(First + k·Growth,
// Longest), in the clock's ticks (take.go), and whether it fits in the test
// time after t ticks. The schedule counts ticks as play does, so that its sums are
// exact: three environments of 0.1 s fill a test time of 0.3 s, where the
// float sum 0.30000000000000004 would leave the third out.
func (s AdaptiveSettings) time(k int, t int64) (int64, bool) {
	f := min(s.First+float64(k)*s.Growth, s.Longest)
	if !(f > 0) || f > s.Tau { // before ticks, so that it cannot overflow
		return 0, false
	}
	d := max(ticks(f), 1)
	return d, t+d <= ticks(s.Tau)
}

// AdaptiveStep is one environment of an adaptive test, as the examinee met
// it, and the test's estimate once it was done.
type AdaptiveStep struct {
	Number  int    // from 1
	Name    string // adaptive:SEED/NUMBER/LEVEL on Λ_one's ladder, else the pool's name
	Level   int    // 1…the ladder's levels
	Cells   int    // Level + 2 on Λ_one's ladder
	Actions int
	KApprox int     // zlib length of Good and Evil's pattern
	Bits    float64 // description length (docs/complexity.md)
	// Start is the test time at which the environment began, Time the time
	// it was given, both on the clock's grid (whole microseconds); it ended
	// at Start + Time (End).
	Start, Time  float64
	Interactions int
	Stopped      bool // the agent stopped acting before its time was up
	// Horizon is the interactions a planner looked ahead where it could
	// not plan the environment exactly (env.Horizoner), its score then a
	// lower bound on the optimum; 0 otherwise.
	Horizon int
	Score   float64 // the chosen payoff at Time
	// Estimate and SE are the test's score and its standard error over the
	// environments done so far, this one included.
	Estimate, SE float64
}

// End is the test time at which the step ended.
// The sum is taken in ticks, so that a step of 0.2 s from 0.1 s ends at
// 0.3 s, not at 0.30000000000000004, and At(0.3) counts it.
func (st AdaptiveStep) End() float64 { return seconds(ticks(st.Start) + ticks(st.Time)) }

// AdaptiveResult is one examinee's adaptive test.
type AdaptiveResult struct {
	Agent string
	Seed  uint64
	Steps []AdaptiveStep
	// Score and SE are the final estimate and its standard error (0 with
	// fewer than two environments); MeanLevel is the mean level over the
	// environments, where the staircase sat.
	Score, SE, MeanLevel float64
	// Low and High bound the score's 95% interval, a bootstrap-t interval
	// from the staircase's model (docs/tests.md, "How sure the score is"),
	// usually wider than Score ± 1.96 SE (it comes from the bootstrap's
	// quantiles and is cut to [−1, 1]) and not centred on Score. Both are
	// Score when SE is 0, as with fewer than two environments.
	Low, High float64
	// Unused is the test time left over once the next environment no
	// longer fitted.
	Unused float64
	// Fault says why a built-in agent's test stopped early: it failed to
	// play the next environment as it claims (agent.Optimal could not
	// plan), and a score that is not what it claims would move its
	// staircase. The steps before it stand; nil when none failed.
	Fault error
}

// At is the estimate, its standard error and the environments it rests on
// had the test been stopped at test time tau: the environments done by
// then count, one cut by the stop does not.
func (r AdaptiveResult) At(tau float64) (score, se float64, done int) {
	for done < len(r.Steps) && r.Steps[done].End() <= tau {
		done++
	}
	if done == 0 {
		return 0, 0, 0
	}
	st := r.Steps[done-1]
	return st.Estimate, st.SE, done
}

// AdaptiveExercise is the environment the adaptive test of seed gives at
// step number (from 1) to an examinee at level (1…MaxLevel; beyond it a
// valid space can take very long to draw): every examinee that
// reaches that level at that step meets the same one, with the same
// episode seed (AdaptiveEpisodeSeed).
func AdaptiveExercise(seed uint64, number, level int) Exercise {
	return drawExercise(random.New(env.EpisodeSeed(seed, number), uint64(level)), number, level+2)
}

// AdaptiveEpisodeSeed is the seed of the episode of step number at level.
func AdaptiveEpisodeSeed(seed uint64, number, level int) uint64 {
	return env.EpisodeSeed(env.EpisodeSeed(seed, number), level)
}

// TakeAdaptive gives the adaptive test of seed to every examinee and
// returns their results in order. Each examinee's test is a sequence,
// since each level depends on the last score; the examinees take each
// environment of the schedule together, spread over the machine's cores,
// so that a stop (AdaptiveSettings.Stop) finds them at the same test time.
// The result depends only on the arguments. When a built-in agent fails
// to play as it claims (AdaptiveResult.Fault), or Stop stopped the test,
// the results are still given, and the error is an *AgentError of the
// faults (ErrStopped among them).
func TakeAdaptive(examinees []Examinee, s AdaptiveSettings, seed uint64) ([]AdaptiveResult, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(examinees) == 0 {
		return nil, ErrNoItems
	}
	takers := make([]*adaptiveTaker, len(examinees))
	for i, x := range examinees {
		takers[i] = newAdaptiveTaker(x, s, seed)
	}
	errs := make([]error, len(examinees))
	var faults []error
	done := 0
	for k := 0; ; k++ {
		going := 0
		for _, a := range takers {
			if a.going(k) {
				going++
			}
		}
		if going == 0 {
			break
		}
		if closed(s.Stop) {
			faults = append(faults, fmt.Errorf("%w: every examinee's test is reported as it stood at %v s of its %v s",
				ErrStopped, reached(takers), s.Tau))
			break
		}
		cores.Do(len(takers), func(i int) { errs[i] = takers[i].take(k) }, nil)
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		if done += going; s.Progress != nil {
			s.Progress(done)
		}
	}
	out := make([]AdaptiveResult, len(takers))
	for i, a := range takers {
		out[i] = a.result()
		if f := out[i].Fault; f != nil {
			faults = append(faults, f)
		}
	}
	if len(faults) > 0 {
		return out, &AgentError{Faults: faults, Items: len(out)}
	}
	return out, nil
}

// reached is the test time the examinees still taking the test have used,
// the same for all of them: the schedule's times are every examinee's.
func reached(takers []*adaptiveTaker) float64 {
	for _, a := range takers {
		if !a.over {
			return seconds(a.t)
		}
	}
	return 0
}

// closed reports whether stop is closed; a nil stop never is.
func closed(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// adaptiveTaker is one examinee's adaptive test under way: the steps so
// far, the staircase's level, the test time used and the running estimate.
type adaptiveTaker struct {
	x      Examinee
	s      AdaptiveSettings
	ladder Ladder
	levels int
	r      AdaptiveResult
	run    aggregate.Run
	est    estimate
	level  int
	t      int64 // the test time used, in ticks
	over   bool  // the agent failed: it takes no further environment
}

func newAdaptiveTaker(x Examinee, s AdaptiveSettings, seed uint64) *adaptiveTaker {
	ladder := s.ladder()
	return &adaptiveTaker{x: x, s: s, ladder: ladder, levels: ladder.Levels(), r: AdaptiveResult{Agent: x.Name, Seed: seed},
		est: newEstimate(ladder.Levels()), level: 1}
}

// going reports whether environment k (from 0) is the examinee's to take.
func (a *adaptiveTaker) going(k int) bool {
	_, ok := a.s.time(k, a.t)
	return ok && !a.over
}

// take plays environment k, if it is the examinee's to take, and moves
// the staircase.
func (a *adaptiveTaker) take(k int) error {
	d, ok := a.s.time(k, a.t)
	if !ok || a.over { // Validate bounded the environments
		return nil
	}
	s, seed, number := a.s, a.r.Seed, k+1
	rung, err := a.ladder.Rung(seed, number, a.level)
	if err != nil {
		return err
	}
	var how ending
	agent := a.x.New()
	a.run, _, how = play(env.NewPlayer(rung.Env), agent, AdaptiveEpisodeSeed(seed, number, a.level), MaxAdaptiveInteractions, seconds(d), s.Pace, s.Score, s.Lambda, a.run[:0])
	if f, ok := agent.(env.Failer); ok && f.Err() != nil {
		a.r.Fault = fmt.Errorf("%s on %s: %w", a.x.Name, rung.Name, f.Err())
		a.t += d // its time is spent
		a.over = true
		return nil
	}
	// Read at the environment's time, which the step is labelled with, as
	// Take reads an item at τ: an agent that used up
	// MaxAdaptiveInteractions before it has its idle time counted.
	score := s.Score.Of(values(a.run, seconds(d), s.Lambda))
	a.est.add(a.level, score, s.move(score), seconds(d))
	st := AdaptiveStep{Number: number, Name: rung.Name, Level: a.level, Cells: rung.Cells, Actions: rung.Actions, KApprox: rung.KApprox,
		Bits: rung.Bits, Start: seconds(a.t), Time: seconds(d), Interactions: len(a.run), Stopped: how == stoppedItself, Score: score}
	if h, ok := agent.(env.Horizoner); ok {
		st.Horizon = h.Horizon()
	}
	st.Estimate, st.SE = a.est.value()
	a.r.Steps = append(a.r.Steps, st)
	a.r.MeanLevel += float64(a.level)
	a.t += d
	a.level = nextLevel(a.level, a.levels, score, s)
	return nil
}

// result is the examinee's test as it stands: the final estimate, its
// interval and the time left unused.
func (a *adaptiveTaker) result() AdaptiveResult {
	r := a.r
	r.Unused = a.s.Tau - seconds(a.t)
	if len(r.Steps) > 0 { // Validate: the first fits, unless the agent failed on it or the test was stopped
		r.MeanLevel /= float64(len(r.Steps))
	}
	r.Score, r.SE = a.est.value()
	r.Low, r.High = a.est.interval(r.Steps, a.s.move, intervalStream(r.Seed, len(r.Steps)))
	return r
}

// AdaptiveInterval is the 95% interval of r's score had the test of
// settings s been stopped at test time tau, as At gives the score: the
// interval the test reports (AdaptiveResult.Low and High) when tau is
// its whole time. Like At, it is (0, 0) when no environment was done by
// tau, and (score, score) when the score's standard error is 0. It
// simulates the staircase's model hundreds of times, so the test computes
// it once, at the end, not at every step.
func AdaptiveInterval(r AdaptiveResult, s AdaptiveSettings, tau float64) (lo, hi float64) {
	_, _, done := r.At(tau)
	if done == 0 {
		return 0, 0
	}
	est := newEstimate(s.ladder().Levels())
	for _, st := range r.Steps[:done] {
		est.add(st.Level, st.Score, s.move(st.Score), st.Time)
	}
	return est.interval(r.Steps[:done], s.move, intervalStream(r.Seed, done))
}

// intervalStream draws the bootstrap of the interval of the test of seed
// stopped after done environments, so that the interval is reproducible.
func intervalStream(seed uint64, done int) *random.Rand {
	return random.New(env.EpisodeSeed(seed, done), 0x696e74657276616c) // "interval"
}

// nextLevel is the staircase: one up after a score of at least Up, one
// down after a score below Down, between 1 and levels.
func nextLevel(level, levels int, score float64, s AdaptiveSettings) int {
	return min(max(level+s.move(score), 1), levels)
}

// move is the staircase's step after score: +1 at Up or more, −1 below
// Down, 0 between.
func (s AdaptiveSettings) move(score float64) int {
	switch {
	case score >= s.Up:
		return 1
	case score < s.Down:
		return -1
	}
	return 0
}
