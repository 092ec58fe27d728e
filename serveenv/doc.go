// Package serveenv is direction B of protocol anynt/1 (docs/protocol.md,
// "Direction B"): a Server reads requests, one JSON object a line, and
// answers each with one line, in order, so that a program outside anynt —
// a Gymnasium wrapper, a training loop — drives anynt's environments
// itself: it makes them (an environment file, or an exercise of the Λ_one
// test of Insa-Cabrera et al. (2012), docs/references.md), resets them
// with seeds and steps them with actions.
//
// The protocol's version, its check and the test for a key given twice
// are package agentproto's, shared with direction A (anynt driving an
// agent), so that both directions speak one protocol. `anynt serve-env`
// only joins a Server to its standard input and output.
//
// Observations are indices into the exercise's alphabet
// (env.ObservationAlphabet), as direction A shows them, and the seeds map
// to the episodes of anynt run and anynt test as docs/protocol.md
// ("Seeds") says; the tests check both, interaction for interaction.
//
// A vector environment (protocol 1.1) is N copies of one exercise made,
// reset and stepped by one request each, its observations, rewards and
// truncations answered as base64 of little-endian bytes: a client pays one
// round trip for N interactions. Its copies play exactly what single
// environments play with the same episode streams; its buffers are reused,
// and a step in the plain form clients send is read without the JSON
// decoder, so that a step allocates nothing; many copies are shared among
// GOMAXPROCS goroutines. After a vector step the server polls its input
// pipe briefly before it blocks (Linux), while the client answers that
// quickly: a sleeping process wakes slowly on an idle virtual machine.
//
// Everything a client can make the server hold is bounded (open
// environments, the length of a request, the steps of an episode), and
// every fault of a request is answered as an error while the server goes
// on; only a hello of another major version, or a failure to read or
// write, ends Serve.
package serveenv
