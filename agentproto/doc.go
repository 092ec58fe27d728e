// Package agentproto speaks anynt's agent protocol, version anynt/1
// (docs/protocol.md), in the direction where a test drives an agent that
// runs outside anynt: any program, in any language, that reads JSON lines
// on its standard input and writes JSON lines on its standard output.
//
// A Process is one such program, started from a command line that Split
// cuts into words as a shell would, but without a shell (nothing is
// expanded, nothing else runs). Start launches it and shakes hands: hello
// both ways, and a different major version is refused. The process then
// plays episodes: Process.Episode gives an env.Agent for one episode, so
// the environment machine (env.Player) drives it like any built-in agent.
// Its Start writes start (the number of actions, the size of the alphabet,
// the steps, a seed drawn from the agent's random stream), each Act writes
// observe and reads act, End writes end. Close says bye.
//
// The observation goes out as indices into a permutation of the
// environment's base symbols (env.Env.BaseSymbols; View.Observation gives
// their codes), drawn from the exercise's seed: the indices carry no fixed
// meaning from one exercise to the next, as the human interface changes
// its glyphs, and the same seed gives the same permutation.
//
// Every answer is timed on the monotonic clock, from writing observe to
// reading act (Episode.Took, and Times over an episode): package exam uses
// these times instead of a pace model, so that seed 001's payoffs see the
// agent's real speed. The process is not safe for concurrent use, and it
// need not be: a test gives it its exercises one after another, in order.
//
// Everything an agent can do wrong is a *Fault, never a panic: no answer
// within the per-message timeout or the test's timeout (read and write
// deadlines on the pipes, so nothing waits forever), an exit or a closed
// output (its exit status quoted), a line that is not a JSON object, of
// another type, longer than MaxLine, an action that is not an integer in
// range, an error message, a version mismatch. A Fault names the command,
// the exercise, the episode and the step, quotes the line and the last
// lines of the agent's standard error (which is passed through as it comes
// and its tail kept), and unwraps to its kind (ErrTimeout, ErrCrash, …) for
// errors.Is. A fault kills the process; the episode keeps what it measured
// and answers the stay action from then on, and Restart gives a new
// process for the next exercise.
//
// The hot path writes observe by hand (strconv into one reused buffer) and
// reads act with one bufio.Reader.ReadSlice; the rest of the cost of an
// interaction is the two pipe transfers and the agent's own JSON, about
// 20 µs with a trivial Python agent (docs/protocol.md, Throughput).
package agentproto
