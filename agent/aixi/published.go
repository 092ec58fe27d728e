package aixi

import "math"

// PublishedSettings are the settings of the built-in agent mc-aixi-ctw:
// those Legg and Veness (2011), Veness being MC-AIXI-CTW's first author,
// gave MC-AIXI in AIQ's test (its repository's settings sheet, "Conf
// Paper Settings.ods": 100 simulations, depth 32, horizon 3), the
// published setting nearest to anynt's tests, whose observations are
// longer than those of Veness et al.'s own domains. The sheet gives no
// exploration constant or reward coding; those stay DefaultSettings'.
// DefaultSettings, chosen by a sweep on Λ_one (doc.go), is what
// mc-aixi-ctw:defaults=shared gives and what the benchmarks measure.
var PublishedSettings = Settings{Depth: 32, Simulations: 100, Horizon: 3, Exploration: math.Sqrt2, RewardLevels: 3}
