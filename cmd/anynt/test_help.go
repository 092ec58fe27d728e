package main

import (
	"fmt"
	"strings"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
)

// testLong is the help of anynt test. Its fixed text is in constants,
// which cost nothing at start-up; the lists of agents, protocols and
// payoffs are made only when the test command is.
func testLong() string {
	return testAbout + protocolHelp() + "\n" + batteryHelp + adaptiveAbout +
		strings.Join(agent.Names(), ", ") + testAgentsAbout + agent.Params() + testOutsideAbout +
		exam.ScoreNames() + testItemsAbout + fmt.Sprint(maxTests) + "; items × agents × episodes at most " +
		fmt.Sprint(maxTestScores) + testFormsAbout
}

// testExample is anynt test's examples.
const testExample = `  anynt test --protocol lambda-one --agent qlearning --tests 20 --seed 1
  anynt test --agent random,qlearning,oracle --tests 20 --html report.html
  anynt test --agent random --agent qlambda --agent 'sarsalambda:lambda=0.9,epsilon=0.1' --agent hlq --agent freq
  anynt test --agent qlearning --pace uniform:0.5:1.5 --score per-cycle --csv > items.csv
  anynt test --protocol battery --agent random,oracle --steps 1000 corpus/paper
  anynt test --protocol battery --generate 60 --pool 200 --weighting universal --sample 50
  anynt test --adaptive --agent random,follower,oracle --test-time 5000
  anynt test --agent random,qlearning --agent-cmd "python3 my_agent.py" --tests 20`

// The fixed parts of testLong, in its order.
const (
	testAbout = `test draws the items of a test from one seed, gives every item to every agent
(--agent, a list: the same items and episode seeds for each, a paired design),
in simulated physical time (--pace: the delay before each action, constant:D,
uniform:A:B or exponential:MEAN seconds), and prints a report: the version,
the test and every setting, and what the score, K_approx and bits are; a
table of the items (test, exercise, name, cells, K_approx, bits,
interactions, each agent's score and, from two episodes, its 95% CI); a
summary per agent (mean, sd, 95% CI, Pearson's r of score against
complexity with its two- and one-tailed p); the same per stratum (as Table 2
of Insa-Cabrera et al. 2011, "Comparing humans and AI agents"); the five
payoffs at τ of Hernández-Orallo 2010a, "On Evaluating Agent Performance in
a Fixed Period of Time"; every agent's paired difference from the first;
each item's scale, its optimum (the clairvoyant best of its episodes) and
random's expected score, with each agent's normalised score, (score −
random) / (optimum − random) (--bounds=false skips it); and the ranking of
the agents, each with its paired difference from the next.
For Q-learning with the thesis's settings on lambda-one, the figures of
Insa-Cabrera et al. 2011 are printed beside ours. The same seed gives the
same output, bit for bit (docs/reports.md).

Protocols:
`
	adaptiveAbout = `

--adaptive gives the adaptive anytime test instead (docs/tests.md): a
staircase over Λ_one's ladder of 3…9 cells (--ladder k-approx: by the
pattern's K_approx; or, given FILEs and folders or --generate, over a pool
of environments cut into up to 7 levels of description length),
environment k given --first-time + k × --time-step seconds up to
--max-time, the level raised after a payoff of at least --up and lowered
below --down, until --test-time seconds are used; it prints each agent's
trajectory and its score (the mean of level/levels × payoff) with its
standard error and its 95% interval, both from a model of the staircase
(--json, --csv: every step; --html FILE: a page with the plots of its
score and its level over the test time).

Agents: `
	testAgentsAbout = `. The learners take their
settings in the agent's name, NAME:key=value,... (--agent
'qlambda:alpha=0.1,lambda=0.9'), each optional, with its default and range;
the report names the agent as given and every setting (docs/environments.md, Agents):
`
	testOutsideAbout = `
--agent-cmd "CMD" examines a program outside anynt, in any language, that
speaks the protocol of docs/protocol.md on its standard input and output:
it takes the items one after another on one process, and its measured
response time replaces the pace. --agent-batch K lets it take up to K items
at once: one message carries their observations and one answer their
actions, each item timed with the round's time and scored as alone; the
agent must accept batches in its hello. Alone unless --agent names built-in agents
too; repeat --agent-cmd to compare several (each takes the test in turn). A fault (no answer within --agent-timeout, the test past
--agent-test-timeout, a crash, a malformed line, an illegal action, an
error message, a line when no answer is expected, another protocol version)
is quoted with its exercise and step; what was measured is kept and
reported; --on-fault stop ends the test at that item for every agent,
continue restarts the agent for the next item; either way anynt then exits
with status 5. The agent runs in a process group of its own, ended with
it. --agent-start-timeout bounds its start-up and hello apart from
--agent-timeout.

An item is played --episodes times (its score is their mean) for --tau
seconds (0: its interactions × the pace's mean delay) and scored by --score:
`
	testItemsAbout = `. --lambda is V|γ|τ's discount.
Q-learning's --alpha, --gamma, --q0 are refused when no agent is qlearning.
--tests is 1 to `
	testFormsAbout = `.

--json prints one object a line: one for each agent and item, then one
summary for each agent (docs/reports.md). --csv prints a row for each agent
and item, the settings in every row. --html FILE writes a self-contained page
with the tables and the plots. --quiet prints no table and no progress line.
On a terminal a progress line on standard error shows the rate and time left.
SIGINT, SIGTERM or SIGHUP end the agents outside anynt at once, stop the
test where it was (the built-in agents at their next episode), write the
report of the items taken and exit with 128 + the signal's number (the
adaptive test: every examinee's test as it stood, at the same time for all).`
)
