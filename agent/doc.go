// Package agent holds the evaluated agents, all behind env.Agent: random,
// stay, the thesis's follower and oracle (Insa-Cabrera 2011, §5.2), and
// Q-learning with the thesis's settings (§4.6: α = 0.05, γ = 0.35, Q
// initialised to 2, rewards shifted from [−1, 1] to [0, 2], the state is π's
// observation), two random agents of Hernández-Orallo (2010a, "On
// Evaluating Agent Performance in a Fixed Period of Time") that choose when
// they act (Paced): the opportunistic Stopper of Theorem 1 and the time
// Modulator, and four reference learners of the field, tabular over π's
// observation and ε-greedy: Watkins's Q(λ) (QLambda; Watkins 1989, Sutton
// and Barto 2018, §12.10), SARSA(λ) with replacing traces (SarsaLambda;
// §12.7), HLQ(λ), Q(λ) without a learning rate (HLQ; Hutter and Legg 2008,
// "Temporal Difference Updating without a Learning Rate"), and AIQ's
// frequency agent (Freq; Legg and Veness 2011, "An Approximation of the
// Universal Intelligence Measure"); and, from package aixi, the planner
// MC-AIXI-CTW (Veness et al. 2011, "A Monte-Carlo AIXI Approximation"),
// whose settings are given in its spec like a learner's.
//
// Optimal is no learner but a bound: shown its episode before the first
// interaction (env.Planner), it runs anynt's own machine forward from the
// episode's state (env.Episode's Save, Restore and AppendKey) and plays
// the action sequence with the highest score on that episode (Best: exact
// dynamic programming forward over the episode's states, equal states
// merged). The optimum is clairvoyant, that of the realised episode, not
// the optimum in expectation: the environment is a deterministic function
// of its seed and π's actions (its random choices come from one stream
// seeded per episode, the agent's from another), so every agent's score on
// an episode is that of the action sequence it played, and Optimal's is at
// least as high, episode by episode. Which draws are made may depend on
// π's actions (a collision between Good and Evil, who may see π, draws a
// coin), which leaves the bound intact: Best runs the stream as each
// sequence would. Past its budget (PlanBudget) for that, it plans with a
// receding horizon instead (Ahead) and states the horizon (Horizon): its
// score is then a lower bound on the optimum, no upper bound. Oracle, the
// thesis's, is one-step greedy and no bound.
//
// Random, Follower and Oracle act by env's rules (env.RandomAction,
// env.FollowAction, env.GreedyAction), which env also plays without the
// agent in its lean episodes; RuleOf names the rule of such an agent.
//
// An agent draws only from the random stream the episode gives it, so one
// seed decides a whole run. Lookup finds an agent by its spec, a name with,
// for a learner, settings after a colon (qlambda:alpha=0.1,lambda=0.9),
// and checks its settings once, returning a Factory that cannot fail: every
// run builds its agents from a factory, so a misspelt name, an unknown key
// or a rate out of range is refused before anything runs
// (docs/environments.md, Agents, lists the ranges). The learners keep their
// tables flat and their traces in a list of the pairs that have one, so an
// interaction allocates nothing once its states are known and costs the
// pairs visited lately, not every pair seen.
package agent
