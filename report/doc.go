// Package report turns a test's outcomes into the figures and pictures a
// reader of Insa-Cabrera et al. (2011, "Comparing humans and AI agents";
// docs/references.md) expects, and writes them as text, CSV, JSON lines and
// one self-contained HTML page.
//
// New takes the items of a test (exam.Item), what every examinee did on
// each (exam.Take's outcomes, examinee by examinee, item by item), the
// settings the test was given with, the protocol, the seed and the tool's
// version, and computes, for each agent:
//
//   - n, the mean item score, its sample standard deviation and the 95%
//     interval of the mean from Student's t (internal/stats), and the sample
//     standard deviation of the tests' mean scores (Insa-Cabrera et al.
//     gave each test to one person, and their sd of 0.122 matches this
//     figure of ours, not the items' spread);
//   - Pearson's r of item score against the items' complexity
//     (Item.Complexity: K_approx for Λ_one), with the two-tailed p-value of
//     r ≠ 0 and the one-tailed p-value of r < 0, from t = r·√((n−2)/(1−r²))
//     on n − 2 degrees of freedom. The one-tailed test is the papers'
//     hypothesis, that more complex environments score lower; Table 2 of
//     Insa-Cabrera et al. (2011) prints it, and the tests reproduce every p
//     of that table from its r;
//   - the same figures within each stratum: for Λ_one the number of cells
//     n_c (Table 2, Fig. 4 left); for other tests up to five bins of whole
//     units of complexity cut at the quantiles, with at least ten items a
//     bin where there are enough (Strata);
//   - the means over the items of the five payoffs at τ of
//     Hernández-Orallo (2010a, "On Evaluating Agent Performance in a Fixed
//     Period of Time"), and of their anytime curves, read at the same
//     fractions of each item's τ;
//   - its paired difference from the first agent: every agent takes the
//     same items with the same episode seeds, so item i of one agent is
//     paired with item i of the other; the mean difference, its 95%
//     interval and the paired t test's two-tailed p-value.
//
// Statistics come from gonum: means and deviations from stat, everything
// of Student's t from internal/stats. A figure that cannot be computed (an
// r of constant scores, a deviation of one value) is NaN inside, "n/a" in
// text, an empty field in CSV and null in JSON: never a made-up number.
//
// For Q-learning with the thesis's settings on Λ_one, the report carries the
// published figures of Insa-Cabrera et al. (2011) (mean 0.259, sd 0.122, r =
// −0.444, n = 140, and Table 2's row) and prints them beside ours.
//
// The plots are drawn with gonum/plot and written as SVG (vg/vgsvg) inline in
// the page, so the page needs nothing else: score against complexity with
// each agent's least-squares line (Insa-Cabrera et al. 2011, Fig. 4 right),
// box plots of the scores per stratum with each agent's means joined (Fig. 4
// left), histograms of the scores scaled to densities (Fig. 3), and the
// anytime curve of each payoff. Every agent has one colour (Okabe and Ito's
// colour-blind-safe palette), one mark and, for every second agent, a dashed
// line in every plot, and every plot has a legend naming each agent. The page
// is well-formed XHTML, so an XML parser can check it, and the tests check
// that every plot draws every agent.
//
// Adaptive writes the adaptive anytime test (exam.TakeAdaptive) as a page of
// the same form: its scores, the plot of each agent's estimate over the
// test time with ± one standard error, and the plot of its level.
//
// Everything is deterministic: the same input gives the same bytes in
// every form.
package report
