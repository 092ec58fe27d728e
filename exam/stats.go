package exam

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI returns the mean of xs and its 95% confidence interval from
// Student's t with n−1 degrees of freedom; with one value the interval is
// that value, with none both are 0.
func MeanCI(xs []float64) (float64, [2]float64) {
	if len(xs) == 0 {
		return 0, [2]float64{}
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	if len(xs) < 2 {
		return mean, [2]float64{mean, mean}
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(0.975)
	half := t * sd / math.Sqrt(float64(len(xs)))
	return mean, [2]float64{mean - half, mean + half}
}
