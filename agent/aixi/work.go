package aixi

import "fmt"

// An action's work is the product of three settings, so bounding each
// alone does not bound it: ρUCT runs Simulations simulations of Horizon
// percept samples each, and a sample predicts and updates every bit of
// the percept along its context, up to Depth + 1 nodes of a context tree.
// At each setting's own maximum an action would take about an hour of CPU
// on fixture B, and a Λ_one run most of a year.
const (
	// MaxWork bounds Work, the node visits of an action for each bit of a
	// percept: about 12 s of CPU an action on fixture B, a day for a
	// 20-test Λ_one run. The paper's scale (Veness et al. 2011: D from 32
	// to 96, hundreds to thousands of simulations) fits well within it.
	MaxWork = 10_000_000

	// nsPerVisit is what a node visit costs: at the defaults an action on
	// fixture B takes about 2.7 ms (BenchmarkBudget, an idle core) for
	// 64 × 1 × 33 visits to each of its 62 percept bits. A busy core is
	// slower (30 to 70 ns measured beside other work).
	nsPerVisit = 20
	// referenceBits are the bits of fixture B's percepts, and
	// referenceActions the interactions of a 20-test Λ_one run, which the
	// estimate of an action's cost is given for.
	referenceBits    = 62
	referenceActions = 20 * 350
)

// Work is Simulations × Horizon × (Depth + 1): the context-tree nodes an
// action visits, about, for each bit of a percept.
func (s Settings) Work() int64 {
	return int64(s.Simulations) * int64(s.Horizon) * int64(s.Depth+1)
}

// WorkError says that the settings' work an action is past MaxWork, and
// what it would cost.
type WorkError struct{ Settings Settings }

func (e *WorkError) Error() string {
	s := e.Settings
	action := float64(s.Work()) * referenceBits * nsPerVisit / 1e9
	limit := float64(MaxWork) * referenceBits * nsPerVisit / 1e9
	return fmt.Sprintf("MC-AIXI-CTW's simulations × horizon × (depth + 1) is %d × %d × %d = %d node visits an action for each percept bit, "+
		"an estimated %s of CPU an action on fixture B's %d-bit percepts and %s for a 20-test Λ_one run (%d actions, at about %d ns a visit); "+
		"it must be at most %d (about %s an action there): lower simulations, horizon or depth",
		s.Simulations, s.Horizon, s.Depth+1, s.Work(), span(action), referenceBits, span(action*referenceActions), referenceActions, nsPerVisit,
		MaxWork, span(limit))
}

// CheckWork reports settings whose work an action is past MaxWork;
// their ranges must have been checked (Check does both).
func (s Settings) CheckWork() error {
	if s.Work() > MaxWork {
		return &WorkError{s}
	}
	return nil
}

// span writes a number of seconds in the unit a reader plans with.
func span(seconds float64) string {
	switch {
	case seconds < 60:
		return fmt.Sprintf("%.2g s", seconds)
	case seconds < 3600:
		return fmt.Sprintf("%.0f min", seconds/60)
	case seconds < 48*3600:
		return fmt.Sprintf("%.1f h", seconds/3600)
	}
	return fmt.Sprintf("%.0f days", seconds/86400)
}
