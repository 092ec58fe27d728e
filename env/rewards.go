package env

import "math"

// giveReward sets cell c's reward to r.
func (ep *Episode) giveReward(c int, r float64) {
	ep.cellReward[c], ep.halvedFrom[c] = r, ep.halvings
}

// rewardIn is the reward cell c holds now: the reward it was given,
// halved once for each interaction since.
func (ep *Episode) rewardIn(c int) float64 {
	return halved(ep.cellReward[c], ep.halvings-ep.halvedFrom[c])
}

// halved is r halved k times, one rounding after another, as k divisions
// by 2 give it. While the result stays a normal number each halving is
// exact, so those are one subtraction from the exponent; below that
// (subnormals) each halving may round, and they are done one by one, at
// most 54 before any value reaches zero, on the significand as an integer:
// a division of a subnormal by 2 in floating point takes a hundred times
// longer on common processors (a microsecond for the 54), and a space of
// thousands of cells whose old rewards sank that low spent nearly all its
// planning time here.
func halved(r float64, k uint64) float64 {
	bits := math.Float64bits(r)
	exp := bits >> 52 & 0x7ff // biased: 1 is the smallest normal exponent
	switch {
	case k == 0 || r == 0 || exp == 0x7ff: // 0x7ff: infinite or NaN
		return r
	case k < exp: // the result is normal
		return math.Float64frombits(bits - k<<52)
	case exp > 1: // exactly down to the smallest normal exponent
		bits -= (exp - 1) << 52
		k -= exp - 1
	}
	// At exponent 1 and 0 (subnormal) alike, the bits but the sign are
	// the significand m, an integer, of the value m·2^-1074.
	sign, m := bits&(1<<63), bits&^(1<<63)
	for ; k > 0 && m != 0; k-- {
		half := m >> 1
		if m&1 == 1 && half&1 == 1 { // a tie: to even, as the division rounds
			half++
		}
		m = half
	}
	return math.Float64frombits(sign | m)
}

func (ep *Episode) rewardValue(who int) float64 {
	if levels := ep.env.Reward.Levels; len(levels) > 0 {
		return levels[ep.level[who]]
	}
	return ep.env.Reward.Value
}
