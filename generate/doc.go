// Package generate makes environments for test batteries: it enumerates
// them in order of description length, evolves them, and filters them,
// keeping only valid, balanced and discriminating ones ([P] §6, §6.3; [T]
// §3.6.6 and Ch. 8). docs/generation.md is the user's guide.
//
// # Filters
//
// Check runs, in order: the source parses and loads (syntax, behaviours
// compiled, the space valid, generators and behaviours within their
// bounds); balance: the random agent's mean over the filter episodes is
// statistically indistinguishable from 0 (on the whole budget its 95%
// Student's t interval contains 0, a two-sided test at the 5% level, so
// about one balanced environment in twenty is rejected by chance);
// discrimination: a competent agent scores clearly above random: the best
// of the reference agents (the oracle and the follower by default: the
// oracle is greedy for one step and loses to the follower where that
// matters) has an interval that lies above random's.
//
// # The sequential test
//
// With FilterSettings.Sequential (the default, not evolution's) balance and
// discrimination are decided in looks of 16, 32, 64 … episodes and the
// whole budget (sequential.go), a group-sequential design with
// Haybittle–Peto bounds: a look before the last decides only on 99.9%
// intervals (Student's t, from internal/stats, as every interval; balanced: within ±BalanceMargin; unbalanced: excluding 0;
// accepted: the best reference's above random's; insensitive: no
// reference BalanceMargin above random), and the last look is the fixed
// rule on the whole budget. Episode i keeps its seed, so a look sees the
// fixed run's first episodes, and a candidate no look settles gets the
// fixed verdict. Why a margin: the fixed test's verdict on a balanced
// candidate is a 5% coin flip at 200 episodes that no early look can
// foresee; a margin asks a question a few episodes answer. The error rates
// are in docs/generation.md and tested on synthetic streams; the verdicts
// are compared with the fixed budget's on the corpus and 2,000 enumerated
// candidates. A rejection names its reason. A space error is told apart
// from other load errors by its type (env.InvalidSpaceError), and agent
// names are checked (FilterSettings.Validate) before anything runs.
//
// # Lean episodes
//
// The filters' episodes are most of a candidate's cost, and on the
// enumerated family (and any environment without a behaviour program: no
// objects, Good and Evil on a pattern, no reward levels) they need none of
// env's machine: no observation is built, no VM runs, and the filters'
// built-in agents (random, the oracle, the follower) act by rules of
// where things are (env's rules.go). So such an environment plays lean
// episodes: the runs of an agent that agent.RuleOf gives a rule play its
// environment's lean form (env.Env.Lean) on an env.LeanPlayer, one a
// worker, kept in a pool from candidate to candidate; any other
// environment or agent plays through env.Player. Both are env's, and score
// an episode alike, bit for bit. CheckPlain is Check without lean
// episodes; TestLeanRuns (the runs of each agent, look by look, on
// enumerated candidates with every setting a file may change, the corpus
// and a 60-cell ring, up to 2,000 interactions), TestLeanFilters and
// FuzzLeanFilters compare the two.
//
// Stream does not write, parse, load and cost each candidate
// (candidates.go): the candidates of one space load to environments that
// differ only in their pattern (the family has no settings), and a
// candidate's bits are those package complexity computes for its file
// (TestEnumerate checks it), so only the first candidate of each space is
// checked from its text, and the others take its lean form with their own
// pattern (env.Lean.WithPattern) and bits; the text is written only for an accepted candidate.
// TestCandidateChecker and FuzzStreamVerdicts compare the verdicts with
// Check's on each candidate's text.
//
// # Enumeration
//
// Enumerate streams a family of environments in increasing description
// length: 2 to 4 actions, an explicit space (costed by its canonical
// code), Good and Evil on a cyclic pattern, no other objects, the default
// rewards and settings. Its order is exact: every member's length is the
// one package complexity computes for the file written (a test checks it),
// and every member up to the bound comes out (complete). Duplicates are
// skipped without being counted: spaces equal up to renumbering the cells
// and the moving actions (only the renumbering with the least canonical
// code is kept), patterns that repeat a shorter one, patterns that use an
// action with the same arrows as a lower one, and patterns that a symmetry
// of the space maps to a smaller one: these act identically on the space.
// Spaces are listed up front within the bound, walking tables arrow by
// arrow with the code length as the budget; patterns are generated lazily,
// a block of one length on one space at a time, from a queue ordered by
// cost, so a --limit stops the work early. Stream adds the filters and
// shards: shard K of N is the K-th of N nearly equal runs of consecutive
// candidates (ShardRange), which it reaches by seeking (seek.go): whole
// blocks are skipped by their size, counted by an automaton of the
// space's symmetries, and the first pattern is found by unranking, so a
// shard costs its own candidates and not the ones before it.
//
// # Output folders
//
// Stream and Evolve keep their output in a folder that survives a kill:
// every file is written to a temporary name, synced and renamed
// (atomicfile.Write); a run holds the folder's flock(2) lock, which the
// kernel drops when the process ends; and a state file says what a resumed
// run must find. Stream journals a SHA-256 of each file before its state
// counts it, checks every file against the journal on resuming (a missing
// or torn one is written again) and emits a line only after the state that
// counts it is saved, so nothing is emitted twice. Evolve saves its whole
// state (the population with its genomes, the sources seen, the records)
// after every generation; since generation g draws from a stream of its own,
// a resumed run ends exactly as an uninterrupted one.
//
// # Evolution
//
// Evolve improves a population of environments by mutation, crossover and the
// exchange of rules between objects, the heuristic that Hernández-Orallo
// (2010b, §6.3) suggests ("evolutionary algorithms, where rules can mutate
// and be exchanged between objects"). Only candidates that pass the filters
// (Check: they load, they are balanced, they discriminate) enter the
// population.
//
// Fitness is Check's: the gap between the mean score of the best reference
// agent and that of the random agent, divided by log2 of the description
// length in bits (complexity.Total, at least 2 bits):
//
//	fitness = (mean(best reference) − mean(random)) / log2(bits)
//
// so a simpler environment that discriminates as well is fitter, but a gap
// counts for more than a few bits.
//
// The genome is a Go struct, not source text: the number of actions (2 to
// 4; named s l r for three and s a1 a2 … otherwise), a space table of 2 to
// 6 cells, the Good/Evil program and 0 to 2 objects with their programs.
// A program is a list of rules over abstract symbols (the markers of the
// actions, π, ⊙, the objects, ':', the actions and two work symbols X and
// Y); the left-hand sides may use the sugar of optional groups and
// alternatives, as in π [⊙] L ->. r r or (π|:) ->. A genome is rendered to
// source text deterministically, put in canonical form by lang.Format, and
// given to Check; every space the operators make is checked (the stay
// action loops, each cell has an arrow leaving it, strongly connected)
// before it is rendered, and repaired or the operator retried.
//
// Operators: mutation changes a table entry, adds or removes a cell or an
// action, adds, deletes or replaces a symbol of a rule side, turns a symbol
// into a group or back (an alternative more or less, optional or not),
// adds, deletes or swaps rules, flips a rule's terminating arrow, and adds
// or deletes an object; crossover gives a child the other parent's space,
// Good/Evil program or objects, or one of its rules; rule exchange copies or
// moves a rule from one program of a genome to another (objects and
// Good/Evil alike). After an operator, symbols that no longer exist (an
// action or object removed) are remapped or dropped.
//
// Selection: each generation breeds as many candidates as the population
// holds; a parent is the better of two drawn at random (a tournament of 2),
// a third of the children are crossed with a second parent, and every child
// gets one or two mutations. A candidate that an earlier one already was (in
// canonical form) is rejected as a duplicate without running the filters.
// The next population is the best of the old population and the accepted
// children (elitism, (μ+λ)), ranked by fitness, then fewer bits, then
// earlier birth, then source text; so the best fitness never decreases. The
// first population (generation 0) holds the hand-made seeds that pass the
// filters (the paper's Example 5 with Good/Evil staying or moving, and a
// three-cell ring with the programs π [⊙] L ->. r r and (π|:) ->; ->. l)
// and their mutants, until it is full.
//
// Reproducibility: one seed decides everything. Generation g draws from its
// own PCG stream (math/rand/v2) derived from the seed and g, candidates are
// filtered one after another (each filter run is itself parallel and
// deterministic), and the filters run with the same seed; the same settings
// give the same generations and the same environments, bit for bit,
// whatever the number of cores.
package generate
