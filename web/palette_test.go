package web_test

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/anynt/anynt/study"
)

// minHueDistance is how far, in degrees of hue, a cell's colour stays
// from the reward icons' green and red: a cell of the reward's hue would
// echo it, and a person might read the cell as a gain or a loss.
const minHueDistance = 40

// TestCellPaletteAvoidsRewardHues reads the page's cell palette and the
// reward icons' colours from style.css: every colour of the palette (as
// many as app.js cycles through) is at least minHueDistance from the hues
// of the green and red circles, even under the pointer where it is more
// saturated; the colours are distinct (hue and lightness); and the pointer
// still gives a more saturated background than the cell's own.
func TestCellPaletteAvoidsRewardHues(t *testing.T) {
	b := newBrowser(t, serve(t, openStudy(t, study.Intro{})))
	css := string(b.do("GET", "/assets/style.css", nil, nil).body)
	js := string(b.do("GET", "/assets/app.js", nil, nil).body)
	m := regexp.MustCompile(`const COLOURS = (\d+);`).FindStringSubmatch(js)
	if m == nil {
		t.Fatal("app.js does not say how many colours it cycles through")
	}
	colours, _ := strconv.Atoi(m[1])

	var rewardHues []float64
	for _, sign := range []string{"1", "-1"} {
		m := regexp.MustCompile(`#reward\[data-sign="` + sign + `"\] \{ background: #([0-9a-f]{6}); \}`).FindStringSubmatch(css)
		if m == nil {
			t.Fatalf("style.css gives no colour to the reward sign %s", sign)
		}
		rewardHues = append(rewardHues, hue(m[1]))
	}

	base := regexp.MustCompile(`(?s)\n\.cell \{.*?background: hsl\(var\(--h\) (\d+)% var\(--l\)\);`).FindStringSubmatch(css)
	hover := regexp.MustCompile(`(?s)\.cell\.accessible:hover[^{]*\{[^}]*background: hsl\(var\(--h\) (\d+)% (\d+)%\);`).FindStringSubmatch(css)
	if base == nil || hover == nil {
		t.Fatalf("style.css has no cell background (%v) or no background under the pointer (%v)", base, hover)
	}
	if s, hs := atoi(t, base[1]), atoi(t, hover[1]); hs <= s {
		t.Errorf("under the pointer the saturation is %d%%, not more than the cell's %d%%", hs, s)
	}

	seen := map[string]int{}
	rule := regexp.MustCompile(`\.cell\[data-color="(\d+)"\] \{ --h: (\d+);(?: --l: (\d+)%;)? \}`)
	rules := rule.FindAllStringSubmatch(css, -1)
	if len(rules) != colours {
		t.Fatalf("style.css has %d cell colours; app.js cycles through %d", len(rules), colours)
	}
	for i, r := range rules {
		if r[1] != strconv.Itoa(i+1) {
			t.Fatalf("colour %d is numbered %s", i+1, r[1])
		}
		h := float64(atoi(t, r[2]))
		for _, rh := range rewardHues {
			if d := hueDistance(h, rh); d < minHueDistance {
				t.Errorf("cell colour %s has hue %.0f°, %.0f° from a reward's %.0f°; want at least %d°", r[1], h, d, rh, minHueDistance)
			}
		}
		key := r[2] + "/" + r[3]
		if j, ok := seen[key]; ok {
			t.Errorf("cell colours %d and %s are the same (hue %s, lightness %q)", j, r[1], r[2], r[3])
		}
		seen[key] = i + 1
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// hue is the hue, in degrees, of the colour rrggbb.
func hue(rgb string) float64 {
	v, _ := strconv.ParseUint(rgb, 16, 32)
	r, g, b := float64(v>>16&0xff), float64(v>>8&0xff), float64(v&0xff)
	hi, lo := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	if hi == lo {
		return 0
	}
	var h float64
	switch hi {
	case r:
		h = (g - b) / (hi - lo)
	case g:
		h = 2 + (b-r)/(hi-lo)
	default:
		h = 4 + (r-g)/(hi-lo)
	}
	return math.Mod(h*60+360, 360)
}

// hueDistance is the angle between two hues.
func hueDistance(a, b float64) float64 {
	d := math.Abs(a - b)
	return math.Min(d, 360-d)
}
