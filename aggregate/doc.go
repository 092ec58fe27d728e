// Package aggregate turns a run's rewards into one figure over a physical
// test time τ, as Hernández-Orallo (2010a, "On Evaluating Agent Performance
// in a Fixed Period of Time", AGI 2010; docs/references.md) defines it.
//
// A run is the sequence of its interactions in physical time: for the i-th,
// the reward r_i the agent saw before its action and t_i, the seconds from
// the start of the run until it acted (the order of events is reward,
// observation, action). The environment answers at once, so all the time
// is the agent's. A test can be stopped at any τ, unknown to the agent;
// n_τ = #{i : t_i ≤ τ} interactions count, so the reward of the last
// action, which comes after it, does not.
//
// Over that prefix the package gives the five payoffs the paper compares:
//
//	V↑τ   the total reward                      Sum
//	ω‖τ   the total reward per second, V↑τ/τ   PerSecond
//	v‖τ   the average reward per interaction   PerCycle
//	V|γ|τ the average weighted by γ_k = λ^k    Discounted
//	v̌‖τ   the average over the first n* = ⌊n_τ·t_{n_τ}/τ⌋ rewards,
//	      "with diminishing history"            Diminishing
//
// Each is 0 when no interaction counts (n_τ = 0, or n* = 0 for v̌‖τ), as
// the paper defines v‖τ. The paper's payoffs are expectations; a run gives
// one sample of each, and a caller averages runs to estimate them.
//
// Why v̌‖τ: an agent that stops acting, or slows down, after good luck
// keeps its luck under v‖τ (Theorem 1: a random agent that stops when its
// average is positive scores above 0). Under v̌‖τ the time it idles
// shrinks the prefix that counts, which drops the lucky end of its history
// (Theorems 2 and 3). The package's tests check the paper's worked example
// and these theorems, and docs/aggregation.md explains the figures.
//
// At reads the five at one τ and Anytime at a list of them. Average means
// Values over runs, payoff by payoff: the paper's payoffs are
// expectations, which a test estimates over its episodes and a report
// over its items, with the same code.
//
// Every payoff walks the run's prefix once and allocates nothing;
// Anytime allocates only its result.
package aggregate
