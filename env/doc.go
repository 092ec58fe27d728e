// Package env is the environment machine of the class Λ ([P] =
// Hernández-Orallo 2010b, "A (hopefully) Unbiased Universal Environment Class
// for Measuring Intelligence of Biological and Artificial Systems", §4; [T] =
// Insa-Cabrera 2011, the ANYNT master's thesis, §3.6 and Ch. 4–5;
// docs/references.md): it loads environment files, checks their spaces, and
// plays episodes of an agent against them.
//
// Loading (load.go) turns an environment file into an Env: the actions (the
// stay action first; each action's observation marker is its upper-case
// form), the space (a table, a code in either dialect of the papers, or a
// Markov algorithm that writes a code, run under a bound and decoded
// leniently), the objects' and Good/Evil's programs, rewards and settings.
// Every behaviour is compiled with one symbol table prefix — markers, π, ⊕,
// ⊖, ⊙, the objects, ':', the actions, the reward levels — so that one
// observation string serves every program and an action is recognised in
// any program's output by its code.
//
// The loop (episode.go) follows [P] §4.4: Good and Evil set their cells'
// rewards, every object decides on the observation of this interaction, π
// acts, everything moves (Good and Evil never into one cell), π eats its
// cell's reward, every cell reward halves; the score is the average reward.
// The Λ_one variant ([T] §5.1) and the cycle clause and start-up garbage
// ([P] §4.2) are settings. Objects decide before π moves, which is the
// paper's order: they only see the observation of step 9.
//
// Determinism: an episode draws from its own seeded streams (one for the
// environment, one for the agent, one for the garbage agent), derived from
// the run's seed and the episode's index; Evaluate runs episodes in
// parallel and keeps their results in order, so a seed gives the same
// output bit for bit.
//
// Speed: a behaviour is a function of its memory and its observation, so
// an episode keeps a memo of the runs of each program (runs of Good and
// Evil share one); a run met again costs one lookup. The memo is keyed by
// a compact state, not by the observation: an object other than π sees a
// function of where π, the objects and Good and Evil are (both as ⊙, so
// their two cells count as a set) and of the cell it looks from, and a
// memory is interned once and named by an id. The key is the memory's id
// and those cells, packed as digits in base n_c into a uint64 (or, when
// they do not fit, as uvarint bytes), and a run is held with its key in an
// open-addressing table, one cache line a lookup. A hit then builds no
// observation and hashes no string: it moves the behaviour to the memory
// id its run left and counts the run's steps and halt, and the VM's
// memory register is brought up to date only when a later run misses. A
// memo remembers what a run decides (an object's action; the cell Good's
// or Evil's actions lead to and its last reward level), not its output.
// NewPlainEpisode plays without memos; a test and the fuzzer check that
// both play every trajectory, step count and bound count alike.
// Interactions allocate nothing once the memo has met the environment's
// states.
// Evaluate hands the machines and their memos from one episode to the
// next of the same worker (their memories emptied), so the rules are
// analysed once and later episodes find most runs done; an episode plays
// exactly as it would alone, which a test checks. A Player does the same
// for a caller that runs episodes one after another itself: a test in
// physical time (package exam) paces each interaction, calling
// Episode.Interact when the agent acts and End when the episode is over,
// where Run plays n interactions back to back. An agent outside the
// process (anynt serve-env, a Gymnasium step) splits Interact in two:
// Begin plays the interaction up to π's choice and gives π's view, Finish
// plays the action it answers later; both refuse a call out of turn, so a
// client's mistake cannot corrupt an episode. Such an agent reads
// observations as indices into an Alphabet, a permutation of the base
// symbols drawn from the exercise's seed (ObservationAlphabet). MeanCI gives the mean and
// Student's t interval of episodes' scores to Evaluate and to the tests.
// A Planner (package agent's optimal) is shown its episode and the number
// of interactions before the first (Episode.Plan; Run asks it, exam's
// tests in physical time too) and runs the machine forward: Save takes
// the episode's State (positions, cell rewards, the random stream's PCG
// state, each behaviour's memory as its id in the memo), Restore puts it
// back, AppendKey keys it so that states with one future merge. A memory
// the memo could not hold cannot be saved (ErrUnsaved). A Horizoner says
// when its plan looked only some interactions ahead, its score then a
// lower bound on the optimum. Other agents are not asked, and their
// interactions cost what they did.
// A memo is bounded in runs and memories and in bytes, so that long
// strings do not fill memory; a behaviour whose memory finds no room there
// runs on the VM until it comes back to a memory the memo knows. A memo
// full of runs forgets them all and starts again: in a large space the
// states outnumber any memo, but an agent moves a cell at a time, so the
// runs met next are mostly those met lately, which a memo that stopped
// remembering when full would miss for ever.
//
// Large spaces: an interaction costs the same whatever the number of cells
// when the memo answers its runs. Every cell's reward halves each
// interaction ([P] §4.4), but the machine keeps, for each cell, the reward
// it was given and the interaction it was given at, and halves it when it
// is read (π's cell, an oracle's view): the halvings of a normal number
// are one exact subtraction from its exponent, and those below the normal
// range (where each may round) are done one by one, at most 54 of them, so
// the value is bit for bit the k divisions by 2 that the rule writes. A
// Λ_one interaction clears the two cells it rewarded last, not every cell.
// A run that misses the memo needs its observation, a symbol for each
// cell, but between the few cells that show something it is only runs of ':': the
// machine writes it in pieces (vm.Piece), each run of 16 ':' or more one
// piece however long, the cells between as text, found by sorting the
// objects and arrows by cell, so that the pieces are at most twice as many
// as the objects and actions; the VM counts the symbols from the pieces
// (vm.Machine.RunPieces). A small space's observation is one piece,
// written as one walk over its cells. So the machine's part of a miss (the
// pieces, the memo, the moves) does not grow with the space; what does is
// what the behaviour's run needs: its copy of the observation and its
// search through it.
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
// state holds the phase's length. The phase is
// therefore played, but at the cost of a scored interaction; a file may
// set a smaller bound (set cycle-bound) or turn it off (set garbage off).
//
// Bounds: every run of a behaviour is bounded in steps, length and matcher
// work (Settings, as vm.Options), and every setting has a ceiling that
// Load enforces with a positioned error, so that no file can make a run
// hang or exhaust memory. A run stopped at a bound is legal (its output is
// the string so far), but seldom what the author meant: each Episode
// counts, for each behaviour, its runs and those each bound stopped
// (memoised runs included), and Evaluation sums them (Bounds).
package env
