package env

// ObservationOf spells the observation object i (π 0, ⊕ 1, ⊖ 2, ω1 3, …)
// would see now, for tests.
func ObservationOf(ep *Episode, i int) string {
	return ep.env.Text(ep.observe(nil, ep.pos[i], i == Pi))
}
