// Package env is the environment machine of the class Λ ([P] =
// Hernández-Orallo 2010b, "A (hopefully) Unbiased Universal Environment Class
// for Measuring Intelligence of Biological and Artificial Systems", §4; [T] =
// Insa-Cabrera 2011, the ANYNT master's thesis, §3.6 and Ch. 4–5;
// docs/references.md): it loads environment files, checks their spaces, and
// plays episodes of an agent against them.
//
// # Loading
//
// Load (load.go) turns an environment file into an Env: the actions (the
// stay action first; each action's observation marker is its upper-case
// form), the space (a table, a code in either dialect of the papers, or a
// Markov algorithm that writes a code, run under a bound and decoded
// leniently: space.go, code.go), the objects' and Good/Evil's programs,
// rewards and settings. Every behaviour is compiled with one symbol table
// prefix — markers, π, ⊕, ⊖, ⊙, the objects, ':', the actions, the reward
// levels — so that one observation string serves every program and an
// action is recognised in any program's output by its code. Every setting
// has a ceiling that Load enforces with a positioned error, so that no file
// can make a run hang or exhaust memory.
//
// # The episode
//
// An Episode (episode.go) follows [P] §4.4: Good and Evil set their cells'
// rewards, every object decides on the observation of this interaction, π
// acts, everything moves (Good and Evil never into one cell), π eats its
// cell's reward, every cell reward halves; the score is the average reward.
// The Λ_one variant ([T] §5.1) and the cycle clause and start-up garbage
// ([P] §4.2) are settings. Objects decide before π moves, which is the
// paper's order: they only see the observation of step 9. An interaction
// is two halves, begin (the swap, the trace rewards, every decision) and
// finish (the moves, the rewards), so that Run and Interact play it whole
// for an agent inside the process, and Begin and Finish split it for an
// agent outside (anynt serve-env, a Gymnasium step), which is given π's
// view and answers later; both refuse a call out of turn, so a client's
// mistake cannot corrupt an episode. A caller that paces the interactions
// itself (a test in physical time, package exam) calls Interact when the
// agent acts and End when the episode is over.
//
// The files follow the parts of the machine: view.go is what an agent is
// given (Agent, View: π's observation and reward, and the privileged
// positions, cell rewards and intended cells an oracle may read);
// episode.go the loop and the steps it shares with the lean episodes
// (placement, the swap intervals, Good and Evil kept apart); rewards.go the
// cell rewards; behaviour.go the runs of the objects' and Good/Evil's
// programs; observation.go the observations they run on; memo.go and
// table.go the memo of those runs; state.go the saving and restoring of an
// episode for a Planner; rules.go the rules of the random agent, the
// follower and the oracle; lean.go the lean episodes; evaluate.go the
// episodes of a run; alphabet.go the encoding of observations for an agent
// outside; try.go an observation built for cells given by hand and a run's
// output read as an episode reads it (anynt try), through observe and
// decision themselves; lint.go and reach.go the warnings of anynt check.
//
// # Rules that can never match
//
// reach.go decides, without running anything, that a rule can never fire:
// every string a behaviour holds is built from its observations and from
// what its rules write, so it over-approximates those strings by the pairs
// of symbols that can stand side by side in them (an observation's, from
// the space's arrows and from who can stand where, then every pair a rule
// that can match may write, at its edges too, ∇ standing for what Δ may
// have stored, to a fixed point), and calls a plain rule of the expansion
// dead when its left-hand side needs a pair outside them. Pairs, not whole
// strings, because the fixed point is then small (at most the square of
// the alphabet) and every step of it only adds what can happen, so a
// warning is never wrong; it misses rules that the pairs allow but the
// strings never hold.
//
// # Determinism
//
// An episode draws from its own seeded streams of package random, one for
// the environment (placement, swap intervals, the coin between Good and
// Evil), one for the agent and one for the garbage phase's random agent,
// each the episode's seed with a constant of its own (EnvironmentStream,
// AgentStream, GarbageStream); EpisodeSeed derives an episode's seed from
// the run's and the episode's index. Evaluate runs episodes in parallel and
// keeps their results in order, so a seed gives the same output bit for
// bit. An agent outside the process reads observations as indices into an
// Alphabet, a permutation of the base symbols drawn from the exercise's
// seed (ObservationAlphabet).
//
// # Behaviour runs and their memo
//
// A behaviour is a function of its memory and its observation, so the
// machines that run an environment's programs keep a memo of their runs,
// one for each program (Good and Evil share one); a run met again costs
// one lookup. The memo is keyed by a compact state, not by the
// observation: an object other than π sees a function of where π, the
// objects and Good and Evil are (both as ⊙, so their two cells count as a
// set) and of the cell it looks from, and a memory is interned once and
// named by an id. The key is the memory's id and those cells, packed as
// digits in base n_c into a uint64 (or, when they do not fit, as uvarint
// bytes), and a run is held with its key in an open-addressing table, one
// cache line a lookup. A hit builds no observation and hashes no string:
// it moves the behaviour to the memory id its run left and counts the
// run's steps and halt, and the VM's memory register is brought up to date
// only when a later run misses. A memo remembers what a run decides (an
// object's action; the cell Good's or Evil's actions lead to and its last
// reward level), not its output. Interactions allocate nothing once the
// memo has met the environment's states. NewPlainEpisode plays without
// memos; a test and a fuzzer check that both play every trajectory, step
// count and bound count alike.
//
// A memo is bounded in runs and memories and in bytes, so that long
// strings do not fill memory; a behaviour whose memory finds no room there
// runs on the VM until it comes back to a memory the memo knows. A memo
// full of runs forgets them all and starts again: in a large space the
// states outnumber any memo, but an agent moves a cell at a time, so the
// runs met next are mostly those met lately, which a memo that stopped
// remembering when full would miss for ever.
//
// Evaluate hands the machines and their memos from one episode to the
// next of the same worker (their memories emptied), so the rules are
// analysed once and later episodes find most runs done; an episode plays
// exactly as it would alone, which a test checks. A Player does the same
// for a caller that runs episodes one after another itself. Evaluate's
// mean and Student's t interval come from internal/stats, which every
// interval of the project shares.
//
// # Planning
//
// A Planner (package agent's optimal) is shown its episode and the number
// of interactions before the first (Episode.Plan; Run asks it, exam's
// tests in physical time too) and runs the machine forward: Save takes the
// episode's State (positions, cell rewards, the random stream's PCG state,
// each behaviour's memory as its id in the memo), Restore puts it back,
// AppendKey keys it so that states with one future merge. A memory the
// memo could not hold cannot be saved (ErrUnsaved). A Horizoner says when
// its plan looked only some interactions ahead, its score then a lower
// bound on the optimum. Other agents are not asked, and their interactions
// cost what they did.
//
// # Large spaces
//
// An interaction costs the same whatever the number of cells when the memo
// answers its runs. Every cell's reward halves each interaction ([P]
// §4.4), but the episode keeps, for each cell, the reward it was given and
// the interaction it was given at, and halves it when it is read (π's
// cell, an oracle's view): the halvings of a normal number are one exact
// subtraction from its exponent, and those below the normal range (where
// each may round) are done one by one, at most 54 of them, on the
// significand as an integer, so the value is bit for bit the k divisions
// by 2 that the rule writes. A Λ_one interaction clears the two cells it
// rewarded last, not every cell. A run that misses the memo needs its
// observation, a symbol for each cell, but between the few cells that show
// something it is only runs of ':': the observation is written in pieces
// (vm.Piece), each run of 16 ':' or more one piece however long, the cells
// between as text, found by sorting the objects and arrows by cell, so
// that the pieces are at most twice as many as the objects and actions;
// the VM counts the symbols from the pieces (vm.Machine.RunPieces). A
// small space's observation is one piece, written as one walk over its
// cells. So the machine's part of a miss (the pieces, the memo, the moves)
// does not grow with the space; what does is what the behaviour's run
// needs: its copy of the observation and its search through it.
//
// The start-up garbage phase ([P] §4.2) plays U[1, B] interactions of a
// random agent before the scored ones, B = n_c^n_a capped at
// MaxCycleBound (10^6), (B+1)/2 on average, each as dear as a scored
// interaction with the agent's own cost left out. B grows as the cube of
// the space for three actions and reaches the cap at 100 cells, so an
// episode of a large space spends almost all its time there: half a
// million interactions, 4.7 ns each for Good and Evil on a pattern (2 ms),
// about 1.2–1.6 µs each for the ω1-blocker's ring of 100 cells, whose runs
// the memo mostly cannot answer (0.6–0.8 s). No cheaper computation gives
// the same distribution of states in general: the state after the phase
// includes the memories of behaviours, arbitrary programs applied once an
// interaction, and an object may count its runs in its memory, so that the
// state holds the phase's length. The phase is therefore played, but at
// the cost of a scored interaction; a file may set a smaller bound (set
// cycle-bound) or turn it off (set garbage off).
//
// # Rules and lean episodes
//
// Three agents act on where things are and what the cells hold, not on
// what π observes: the random agent, the thesis's follower and its oracle.
// Their rules are written once, in rules.go (RandomAction, FollowAction,
// GreedyAction), as functions of π's row of the space, the cells of Good
// and Evil (or where they intend to go) and the cell rewards, and of the
// agent's random stream: package agent's Random, Follower and Oracle act by
// them, and so does the garbage phase's random agent. They live here, not
// in package agent, because env plays them itself and package agent
// imports env.
//
// An environment without behaviour programs (no objects, Good and Evil on
// a pattern, no reward levels: the enumerated family of package generate,
// whose filters play millions of episodes) needs none of the machine
// above: no observation, no VM, no memo. Env.Lean gives its lean form, and
// a LeanPlayer (lean.go) plays it with an agent's Rule instead of the agent:
// the loop of an Episode's begin and finish with the state in local
// variables, every cell's reward kept as it is now and halved at the end
// of each interaction (cheap in the small spaces of that family), the
// rule called directly, and nothing allocated per episode. It draws from
// the same streams in the same order through the same step functions and
// rules as an Episode, with math/rand/v2's own Rand, so a score is an
// Episode's, bit for bit; a change to the interaction that both loops make
// (the order of the steps, how rewards are given) is made in both, and the
// tests that compare them (here on the corpus and on rings with every
// setting a lean episode depends on, and in package generate on the
// enumerated family and through the filters) fail until it is. The price
// of drawing through math/rand/v2's Rand rather than inlining its
// algorithm is an indirect call per draw, a few percent of a lean episode.
//
// # Bounds
//
// Every run of a behaviour is bounded in steps, length and matcher work
// (Settings, as vm.Options). A run stopped at a bound is legal (its output
// is the string so far), but seldom what the author meant: each Episode
// counts, for each behaviour, its runs and those each bound stopped
// (memoised runs included), and Evaluation sums them (Bounds).
package env
