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

// minTextContrast is WCAG 2's contrast for normal text (AA): the cell's
// number is 0.85rem, under the 18.66px bold or 24px of large text.
const minTextContrast = 4.5

// TestCellNumbersAreReadable computes, from style.css, the contrast of
// the cells' text (the number, in the ink's colour) with every colour of
// the palette in every state of a cell: as drawn, and under the pointer
// or the keyboard's focus, where the background is more saturated. Each
// must reach minTextContrast. axe-core leaves the hovered and focused
// states "incomplete", so they are computed here, the way a browser draws
// them: hsl() to 8-bit sRGB, WCAG's relative luminance.
func TestCellNumbersAreReadable(t *testing.T) {
	b := newBrowser(t, serve(t, openStudy(t, study.Intro{})))
	css := string(b.do("GET", "/assets/style.css", nil, nil).body)
	ink := regexp.MustCompile(`--ink: #([0-9a-f]{6});`).FindStringSubmatch(css)
	cell := regexp.MustCompile(`(?s)\n\.cell \{\s*--h: \d+; --l: (\d+)%;[^}]*background: hsl\(var\(--h\) (\d+)% var\(--l\)\); color: var\(--ink\);`).FindStringSubmatch(css)
	hover := regexp.MustCompile(`(?s)\.cell\.accessible:hover, \.cell\.accessible:focus-visible \{([^}]*)\}`).FindStringSubmatch(css)
	number := regexp.MustCompile(`\.cell \.number \{([^}]*)\}`).FindStringSubmatch(css)
	if ink == nil || cell == nil || hover == nil || number == nil {
		t.Fatalf("style.css: the ink %v, the cell's lightness, saturation and colour %v, the pointer's and focus's rule %v, the number's rule %v",
			ink, cell, hover, number)
	}
	for _, rule := range []string{hover[1], number[1]} {
		if regexp.MustCompile(`(^|[^-])color:`).MatchString(rule) {
			t.Fatalf("the rule {%s} gives the number another colour than the cell's ink, which this test does not compute", rule)
		}
	}
	hs := regexp.MustCompile(`background: hsl\(var\(--h\) (\d+)% (\d+)%\)`).FindStringSubmatch(hover[1])
	if hs == nil {
		t.Fatalf("the pointer's and focus's rule {%s} has no background this test reads", hover[1])
	}
	text := luminance(rgbOf(ink[1]))
	rule := regexp.MustCompile(`\.cell\[data-color="(\d+)"\] \{ --h: (\d+);(?: --l: (\d+)%;)? \}`)
	rules := rule.FindAllStringSubmatch(css, -1)
	if len(rules) == 0 {
		t.Fatal("style.css has no cell colour this test reads")
	}
	for _, r := range rules {
		h, l := float64(atoi(t, r[2])), float64(atoi(t, cell[1]))
		if r[3] != "" {
			l = float64(atoi(t, r[3]))
		}
		for _, state := range []struct {
			name string
			s, l float64
		}{
			{"as drawn", float64(atoi(t, cell[2])), l},
			{"under the pointer or focus", float64(atoi(t, hs[1])), float64(atoi(t, hs[2]))},
		} {
			bg := luminance(hslToRGB(h, state.s/100, state.l/100))
			if c := contrast(text, bg); c < minTextContrast {
				t.Errorf("cell colour %s %s (hsl(%.0f %.0f%% %.0f%%)): its number's contrast is %.2f:1; want at least %.1f:1",
					r[1], state.name, h, state.s, state.l, c, minTextContrast)
			}
		}
	}
}

// rgbOf is the colour rrggbb as 8-bit channels.
func rgbOf(hex string) [3]uint8 {
	v, _ := strconv.ParseUint(hex, 16, 32)
	return [3]uint8{uint8(v >> 16), uint8(v >> 8), uint8(v)}
}

// hslToRGB is CSS's hsl() (hue in degrees, saturation and lightness from
// 0 to 1) as a browser draws it, in 8-bit channels.
func hslToRGB(h, s, l float64) [3]uint8 {
	f := func(n float64) uint8 {
		k := math.Mod(n+h/30, 12)
		a := s * math.Min(l, 1-l)
		v := l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1))
		return uint8(math.Round(v * 255))
	}
	return [3]uint8{f(0), f(8), f(4)}
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func luminance(c [3]uint8) float64 {
	var lin [3]float64
	for i, v := range c {
		x := float64(v) / 255
		if x <= 0.04045 {
			lin[i] = x / 12.92
		} else {
			lin[i] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
}

// contrast is WCAG 2's contrast ratio of two relative luminances.
func contrast(a, b float64) float64 {
	return (math.Max(a, b) + 0.05) / (math.Min(a, b) + 0.05)
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
