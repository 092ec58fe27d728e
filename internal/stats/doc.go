// Package stats is the project's Student's t statistics, in one place:
// the t distribution's quantiles (kept once computed), the mean of a
// sample with its 95% interval (MeanCI), an interval at any level
// (Interval, the sequential test's bounds), and the p-values of a t
// statistic (Pearson's r, a paired difference).
//
// Every figure comes from gonum's distuv.StudentsT, exact to double
// precision, so that a researcher can check it against R or scipy; a
// hand-written quantile would be an approximation (an expansion around
// the normal quantile gives an interval a quarter too narrow at two
// values). Computing a quantile costs an inverse incomplete beta
// function, tens of microseconds, and a report or a sequential filter
// asks for the same few again and again, so TQuantile keeps them in one
// cache shared by every caller. A kept value is the value computed, so the
// cache changes no figure.
//
// env (an evaluation's interval), exam (an item's), report (summaries,
// strata, correlations, paired differences), generate (the looks of the
// sequential filters) and the command's run of an outside agent use it.
// It lives under internal/ because it is a helper of those packages, not
// a statistics library for other modules: its API can change with them.
package stats
