// Package exam builds the tests an examinee takes from the environments of
// the class and gives them: the Λ_one protocol of the ANYNT prototype
// (Insa-Cabrera et al. 2011, "Comparing humans and AI agents", §3;
// Insa-Cabrera et al. 2012, "The ANYNT Project Intelligence Test Λ_one",
// §5.1), batteries drawn by complexity, and the adaptive anytime test, all
// played in physical time and scored by the payoffs of Hernández-Orallo
// (2010a, "On Evaluating Agent Performance in a Fixed Period of Time";
// package aggregate). docs/references.md lists the papers.
//
// Take gives items (an environment, its steps, its seed, its complexity
// figures) to examinees on all cores. Before each action a Pace draws the
// simulated delay of a built-in agent, which an agent.Paced agent may
// change or refuse (stop); an item ends after its steps or at its test
// time τ. The episode's clock sums the delays exactly and rounds once (a
// two-sum), so that an agent at a constant pace of d seconds acts at
// exactly i·d and its last action falls on the default τ = steps × d: a
// running float sum drifts by an ulp a step, and under v̌‖τ, whose n*
// floors, an ulp short of τ costs a reward. Every examinee plays item i, episode e, with the same seed, so
// agents are compared on the same environments and the same random
// choices (a paired design), and the outcome does not depend on the number
// of cores. The payoffs are read at τ, and at evenly spaced times up to τ
// (the anytime curves), each at the time it is labelled with, as
// Hernández-Orallo (2010a, "On Evaluating Agent Performance in a Fixed
// Period of Time") defines them: an episode whose steps ran out before τ
// has the time left to τ counted, as an agent that stopped of its own
// accord (the stopper) has. Outcome.AtEnd reads them when each episode ended instead, at its
// last step when the steps ran out first. An agent outside anynt given no
// test time is given the steps, as a person is: its τ is when its last
// episode of the item ended.
//
// Λ_one is seven exercises, one for each number of cells n_c = 3…9, of
// m = 10·(n_c − 1) interactions (350 in all). In each, the number of
// actions n_a is uniform on 2…n_c; action 0 leads every cell to itself and
// every other arrow goes to a cell drawn uniformly, the whole space drawn
// again until it is valid for the class (env.Space.Check: two arrows of
// each cell reach different cells, and every cell reaches every other).
// Good and Evil follow one cyclic pattern of actions, each drawn uniformly,
// its length geometric with stopping probability 1/n_c (so n_c on
// average); π, Good and Evil start in cells drawn uniformly, Good and Evil
// apart. Rewards are ±1, collected after the moves, with no trace (set
// rewards lambda-one). K_approx, the papers' complexity of an exercise, is
// the zlib length of its pattern's digits, byte for byte as R's
// memCompress gives it (complexity.ZlibLength).
//
// One seed fixes the whole test: every examinee given the same seed takes the
// same seven environments, the paired design of Insa-Cabrera et al. (2011).
// The draws come from one PCG stream in a fixed order (exercise by exercise:
// actions, space, pattern, placement), so a test is reproducible bit for bit,
// and Source writes an exercise as an ordinary environment file that check
// and run accept. LambdaOneItems draws, writes and loads the tests of a run
// on all cores, test k from seed + k − 1 into its own slot, and LoadPool a
// battery's files, so the items are the same on any number of cores; all of
// exam's parallel work goes through internal/cores (docs/tests.md, "On all
// cores"). A space is redrawn until valid; a quick test refuses most invalid
// draws without allocating, and Check decides the rest.
//
// The adaptive anytime test (TakeAdaptive; thesis §3.5) walks the same
// ladder: level ℓ = 1…7 draws an exercise of ℓ + 2 cells as Λ_one does, a
// staircase raises the level after a payoff of at least 0.5 and lowers it
// below 0.25, environment k gets min(20 + 2k, 150) seconds (the cap gives
// a learner's score a limit), and the score is the mean of level/7 × payoff,
// readable at any test time, with a standard error from a Markov model of
// the staircase fitted to the run (estimate.go), since each level depends
// on the payoff before it, and at the end a 95% interval, a bootstrap-t
// of that model, since ±1.96 se is too short for a staircase. A Ladder gives the environments of each level:
// LambdaOneLadder by cells by default, KApproxLadder by K_approx, or a
// PoolLadder cut from a battery's pool by description length.
// Each examinee's test is a sequence; examinees run on all cores.
//
// An examinee may be an agent outside anynt (Examinee.Process): a
// program that takes the test on one process, its items in the test's
// order, never in parallel, so that it may learn across them and
// its results do not depend on scheduling. Take gives it the items first,
// alone on the machine, then gives the built-in agents the same items on
// all cores. Its delay before each action is its measured response time,
// not the pace's: known only once it has answered, so an answer that comes
// after τ has moved the environment but counts for nothing, and the
// episode is cut by τ (Outcome.Cut, apart from Outcome.Stopped, an agent
// stopping of its own accord). A fault ends its episode with what it did
// (read at τ, as for an agent that stopped); the test then stops at that
// item for every examinee, so that the comparison stays paired, or goes on
// with a new process (Settings.ContinueAfterFault) unless the agent's time
// is over or anynt was interrupted (ErrTestTimeout, ErrInterrupted), and
// Take's error is an *AgentError. docs/tests.md gives every rule's reasons.
//
// Take sees such an agent only through the small interface it declares,
// Outside: episodes that are env.Agents, each answer timed and the fault
// kept (Timed), slots and rounds for batches, a restart; the response
// times are exam's Times. Package agentproto's *Process implements it for
// a program speaking docs/protocol.md, so exam, and report after it,
// depend on no protocol, and another kind of agent outside anynt would
// plug in the same way.
//
// An agent outside anynt that takes batches (Outside.Batched)
// plays up to a batch of items at once, each in a slot, a slot taking the
// test's next item when its own is over, so the items begun are still a
// prefix of the test. The slots are stepped in lockstep on one goroutine
// (takeInBatches): a round begins an interaction in every slot
// (env.Episode.Begin), sends their observations in one message, and
// finishes each with its action (Finish). One goroutine a slot, each
// playing takeItem with an agent that waits on a shared batcher, was the
// other design; it would keep play as it is, but it needs a barrier to
// know when every slot waits, and two goroutine hand-offs a slot a round,
// where lockstep has none and no ordering to reason about. The scoring is
// shared instead: itemPlay records and scores each episode, and
// answerTime moves the clock, for both paths, so an item played in a slot
// scores as it does alone; each slot is charged its round's time. A fault
// is the round's, so it ends every item in flight; the items over keep
// their outcomes.
//
// An agent outside anynt given no test time is given the steps: each
// episode is read at its own τ, its last action, as a built-in agent
// keeping a constant pace is, so that the same policy scores the same
// inside and outside; an episode a fault cut short is read at the latest
// end of the item's other episodes (itemPlay.episodeTau). Played scores
// runs played outside Take, a person's in package study, by the same rule,
// the times first put on Take's clock, so that a person and an agent on
// the same item are scored by the same code.
//
// Bounds gives each item its scale on the same episode seeds: the highest
// payoff an agent keeping the pace could reach (agent.Scale: the clock's
// times are fixed by the episode's seed, so every payoff is a weighted sum
// of the rewards, payoffWeights, and the optimum of that sum is found
// forward over the episode's states) and random's exact expectation, or,
// past ScaleBudget, a horizon plan's payoff (a lower bound, Bound.Horizon)
// and random's expectation estimated from plays (Bound.RandomPlays); a
// report normalises every score between the two.
//
// A battery draws its environments from a pool: files
// and folders (ReadPool, LoadPool: every file loaded before anything runs,
// every error of every file returned together) or the generator's stream in
// order of description length (GeneratePool, filtered by default). Battery
// draws from the pool by a named weighting: universal (∝ 2^−K without
// replacement, an exponential race compared in logarithms), stratum
// (uniform over strata of fixed width in bits, then uniform within, as AIQ
// does) or list (the pool's order). Item i's seed is env.EpisodeSeed(seed,
// i), so every examinee meets the same randomness. docs/tests.md gives the
// reasons.
package exam
