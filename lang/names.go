package lang

import (
	"slices"
	"strings"
)

// latexNames maps the ASCII spellings of the LaTeX style (written after a
// backslash) to the characters they stand for. Greek letters are letters, so
// they take subscripts like any other letter: \omega1 is ω1.
var latexNames = map[string]rune{
	"pi": 'π', "oplus": '⊕', "ominus": '⊖', "odot": '⊙',
	"Delta": 'Δ', "nabla": '∇', "chi": 'χ', "notin": '∉',
	"to": '→', "rightarrow": '→', "cdot": '·',
	"alpha": 'α', "beta": 'β', "gamma": 'γ', "delta": 'δ', "epsilon": 'ε',
	"zeta": 'ζ', "eta": 'η', "theta": 'θ', "iota": 'ι', "kappa": 'κ',
	"lambda": 'λ', "mu": 'μ', "nu": 'ν', "xi": 'ξ', "rho": 'ρ',
	"sigma": 'σ', "tau": 'τ', "upsilon": 'υ', "phi": 'φ', "psi": 'ψ',
	"omega": 'ω', "Gamma": 'Γ', "Theta": 'Θ', "Lambda": 'Λ', "Xi": 'Ξ',
	"Pi": 'Π', "Sigma": 'Σ', "Phi": 'Φ', "Psi": 'Ψ', "Omega": 'Ω',
	"star": '⋆', "circ": '∘', "bullet": '•', "diamond": '⋄',
}

// Spelling is one ASCII spelling: \Name stands for Char.
type Spelling struct {
	Name string
	Char rune
}

// Spellings lists every ASCII spelling, sorted by name, for the tools that
// offer them (the language server completes \pi to π).
func Spellings() []Spelling {
	out := make([]Spelling, 0, len(latexNames))
	for name, r := range latexNames {
		out = append(out, Spelling{Name: name, Char: r})
	}
	slices.SortFunc(out, func(a, b Spelling) int { return strings.Compare(a.Name, b.Name) })
	return out
}
