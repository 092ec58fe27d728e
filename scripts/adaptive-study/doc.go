// Command adaptive-study measures the adaptive anytime test over many
// seeds, the figures docs/tests.md quotes for it: for each agent and each
// test time τ, the mean score over the seeds, its spread, the mean
// reported standard error, the coverage of the 95% interval (the share
// of seeds whose interval holds the mean over the seeds) and that of
// score ± 1.96 se beside it, the interval's mean half-width over the mean
// se, and how far the score moved from τ/2 to τ; then how well the
// ladder separates each pair of agents.
//
//	go run ./scripts/adaptive-study [--first 1] [--seeds 500] [--taus 1000,2000,5000,8000,16000]
//	    [--agents random,follower,qlearning,oracle] [--ladder cells|k-approx] [--max-time 150]
//
// Each seed's test is given once, at the longest τ, and read at the
// shorter ones (exam.AdaptiveResult.At): a test stopped at τ' is the test
// of τ', since the schedule does not depend on τ; its interval at τ' is
// exam.AdaptiveInterval's. The examinees' intervals are worked out in
// parallel (about 1.3 ms each).
package main
