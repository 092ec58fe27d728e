package lang

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
