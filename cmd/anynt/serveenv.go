package main

import (
	"errors"
	"fmt"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/serveenv"
	"github.com/spf13/cobra"
)

func newServeEnvCmd(io *stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "serve-env",
		Short: "Serve environments to an agent that drives them (make, reset, step)",
		Long: `serve-env reads requests on standard input, one JSON object a line, and
answers each with one line on standard output, in order: the protocol
anynt/1.1 of docs/protocol.md ("Direction B"), for an agent that
drives the environment itself, such as a Gymnasium wrapper.

A client says hello, makes environments (an environment file, or an exercise
of the Λ_one test by its seed and number), resets them with a seed and steps
them with actions; observations are indices into the exercise's alphabet, a
permutation of the environment's symbols drawn from its seed. The same seed
gives the same episode as anynt run --seed (its first episode) and anynt
test: docs/protocol.md ("Seeds") says exactly how seeds map.

A bad request is answered with {"type":"error",...} and serve-env goes on; a
hello of another protocol version is answered with an error and serve-env
exits with status 5. A make with "num_envs" makes a vector environment, N
copies of one exercise stepped together by one request (docs/protocol.md,
"Vector environments"). At most ` + fmt.Sprint(serveenv.MaxOpenEnvs) + ` environments are open at once,
a request is at most 1 MiB, and an episode at most ` + fmt.Sprint(serveenv.MaxSteps) + ` steps.
The end of standard input ends serve-env with status 0; a failure to read
or write ends it with status 4.`,
		Example: `  printf '%s\n' '{"type":"hello","protocol":"anynt/1"}' \
    '{"type":"make","file":"corpus/thesis/omega1-blocker.anynt","steps":3}' \
    '{"type":"reset","env":1,"seed":7}' '{"type":"step","env":1,"action":2}' | anynt serve-env`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			err := serveenv.New(io.out, serveenv.Options{Version: versionString(), Load: loadEnv}).Serve(io.in)
			switch {
			case errors.Is(err, agentproto.ErrVersion):
				return err // the client's fault, exitAgent
			case err != nil:
				return ioFailure(err)
			}
			return nil
		},
	}
}
