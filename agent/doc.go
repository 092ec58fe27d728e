// Package agent holds the evaluated agents, all behind env.Agent: random,
// stay, the thesis's follower and oracle (Insa-Cabrera 2011, §5.2), and
// Q-learning with the thesis's settings (§4.6: α = 0.05, γ = 0.35, Q
// initialised to 2, rewards shifted from [−1, 1] to [0, 2], the state is π's
// observation), and two random agents of Hernández-Orallo (2010a, "On
// Evaluating Agent Performance in a Fixed Period of Time") that choose when
// they act (Paced): the opportunistic Stopper of Theorem 1 and the time
// Modulator.
//
// An agent draws only from the random stream the episode gives it, so one
// seed decides a whole run. Lookup finds an agent by name and checks its
// settings once, returning a Factory that cannot fail: every run builds its
// agents from a factory, so a misspelt name or a Q-learning rate out of
// range is refused before anything runs (docs/output.md lists the ranges).
package agent
