// Package agentproto speaks anynt's agent protocol, version anynt/1.1
// (docs/protocol.md), in the direction where a test drives an agent that
// runs outside anynt: any program, in any language, that reads JSON lines
// on its standard input and writes JSON lines on its standard output.
//
// A Process is one such program, started from a command line that Split
// cuts into words as a shell would, but without a shell (nothing is
// expanded, nothing else runs). Start launches it and shakes hands: hello
// both ways, and a different major version is refused. New and then
// Process.Start do the same in two steps, so that a caller can guard the
// process (Interrupt, on a signal) from before its handshake. The process then
// plays episodes: Process.Episode gives an env.Agent for one episode, so
// the environment machine (env.Player) drives it like any built-in agent.
// Its Start writes start (the number of actions, the size of the alphabet,
// the observations' length, the steps, a seed drawn from the agent's
// random stream), each Act writes observe and reads act, End writes end.
// Close says bye.
//
// A Process is an exam.Outside, the interface through which a test takes
// an agent outside anynt: exam declares what it needs (timed episodes,
// slots and rounds, a restart) and owns the types it speaks in (the
// episode's EpisodeInfo, here Exercise; the response Times; the faults
// after which the test goes no further, ErrTestTimeout and
// ErrInterrupted), so that exam and report do not depend on this package.
//
// The agent runs in a process group of its own, which is ended (SIGKILL to
// the group) whenever the agent ends: when it exits, at a fault, at Close,
// and at Interrupt, which a signal handler calls from another goroutine;
// so nothing it started outlives it or holds its output open, and its exit
// status is known at once. The child is started and waited for by a
// goroutine locked to its OS thread, because Linux's parent-death signal
// (SIGKILL, so that the kernel ends the agent if anynt dies) fires when
// the thread that forked the child ends, and a thread ends when a
// goroutine locked to it returns. Its standard error is a pipe of ours,
// copied by a goroutine of ours, so that Wait returns when the child
// exits, not when the last of its children closes the pipe.
//
// The protocol is lockstep, and a line the agent writes when no answer is
// expected would otherwise shift every later action by one step: before
// each message it writes, a Process checks that nothing is waiting in its
// buffer or in the pipe (FIONREAD, on Linux), and after reading an act it
// checks that the agent read the observe it answers (the observe still
// whole in the agent's input pipe means the act was written before it).
// Both checks are exact, never blaming an agent that behaves; a stray
// line written slowly enough to pass both is found at the next check.
//
// The observation goes out as indices into a permutation of the
// environment's base symbols (env.Env.BaseSymbols; View.Observation gives
// their codes), drawn from the exercise's seed: the indices carry no fixed
// meaning from one exercise to the next, as the human interface changes
// its glyphs, and the same seed gives the same permutation.
//
// Every answer is timed on the monotonic clock, from writing observe to
// reading act (Episode.Took, and Times over an episode): package exam uses
// these times instead of a pace model, so that the payoffs of
// Hernández-Orallo (2010a) see the agent's real speed. The process is not
// safe for concurrent use, and it need not be: a test gives it its exercises
// one after another, in order.
//
// In batches (Options.Batch above 1, docs/protocol.md, Batches) the
// hello offers the batch, and the agent must accept a batch
// of 1 to Options.Batch items. The process then plays slots: a
// SlotEpisode is the env.Agent of an episode in a slot, whose Start and
// End queue their lines (with the slot) to go out with the next observe;
// the driver begins an interaction in every slot (env.Episode.Begin),
// gives each view to its SlotEpisode (Observe, which writes its
// observation into the round's columns), calls Round once (one write,
// one read, the same checks of stray lines as one at a time), and
// finishes each slot with its Action. Every slot of a round is charged
// the round's time, and a fault of the round is every slot's, each with
// its own exercise, episode and step. Package exam drives the slots.
//
// Everything an agent can do wrong is a *Fault, never a panic: no answer
// within the per-message timeout, the start's (the hello, which may come
// after an interpreter and a model are loaded) or the test's timeout (read
// and write deadlines on the pipes, so nothing waits forever), an exit or
// a closed output (its exit status quoted; the goroutine that waits for the
// agent wakes a read or write that waits on its pipes, since a process the
// agent started out of its group may hold them open), a line that is not a JSON object, of
// another type, with a key twice, longer than MaxLine, an action that is
// not an integer in range, an error message, a line when no answer is
// expected, a version mismatch; and anynt's own interruption
// (ErrInterrupted), recorded as a fault so that the report marks where the
// test stopped. A Fault names the command,
// the exercise, the episode and the step, quotes the line and the last
// lines of the agent's standard error (which is passed through as it comes
// and its tail kept), and unwraps to its kind (ErrTimeout, ErrCrash, …) for
// errors.Is. A fault kills the process; the episode keeps what it measured
// and answers the stay action from then on, and Restart gives a new
// process for the next exercise.
//
// The hot path writes observe by hand (strconv into one reused buffer) and
// reads act with one bufio.Reader.ReadSlice, plus the two FIONREAD system
// calls of the checks above; the rest of the cost of an interaction is the
// two pipe transfers and the agent's own JSON, about 20 µs with a trivial
// Python agent (docs/protocol.md, Throughput). A round of a batch is
// written and read the same way, by hand and into reused buffers, with
// no allocation a round: the pipe transfers and the agent's JSON are then
// shared by the round's slots.
package agentproto
