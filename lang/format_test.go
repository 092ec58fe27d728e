package lang_test

import (
	"testing"

	"github.com/anynt/anynt/lang"
	"github.com/google/go-cmp/cmp"
)

func TestFormatCanonicalForm(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a→b", "a -> b\n"},
		{"a →· b", "a ->. b\n"},
		{`\pi [\odot] \omega_1 -> \nabla \Phi`, "π [⊙] ω1 -> ∇ Φ\n"},
		{"A 1 -> A1", "A 1 -> A1\n"},
		{"( χ1 ∉ { A1 ,π } ) -> χ1", "(χ1 ∉ {A1, π}) -> χ1\n"},
		{"(a | \\| )2 -> (a|\\|)2", "(a|\\|)2 -> (a|\\|)2\n"},
		{"\\. \\# -> ", "\\.\\# ->\n"},
		{"\\|^Δ -> a", "|^Δ -> a\n"},
		{"\uFEFFa -> b", "a -> b\n"}, // the canonical form has no byte-order mark
		{"- > ->", "- > ->\n"},
		{"reward 0.5 0.01", "reward 0.5 0.01\n"},
		{"set \\  a\\#\\  \\->b\\;c|d,e·f", "set \\  a\\#\\  \\->b\\;c|d,e·f\n"}, // words that read back only escaped
		{"# c1\n\n\n  a -> b  # c2\nblock x {\n# c3\na->b\n}\n", "# c1\n\na -> b # c2\nblock x {\n\t# c3\n\ta -> b\n}\n"},
	}
	for _, tt := range tests {
		f, err := lang.Parse("t.anynt", []byte(tt.src))
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if got := string(lang.Format(f)); got != tt.want {
			t.Errorf("Format(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// Printing and parsing again gives the same tree.
// Escapes of characters that cannot be printed back, and bytes that are not
// UTF-8, are errors.
func TestUnprintableSymbols(t *testing.T) {
	for _, src := range []string{"\\\x01 -> a\n", "\\\x98 -> a\n", "\x98 -> a\n"} {
		if _, err := lang.Parse("t.anynt", []byte(src)); err == nil {
			t.Errorf("%q parses", src)
		}
	}
}

func TestFormatRoundTrip(t *testing.T) {
	srcs := []string{
		"[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]\n",
		"ω1(χ ∉ {L,R,:}) -> ω1\n(π|ω1|S|L|R|:) ->\n⊙(E_I|E_D)1 -> (E_I|E_D)1⊙\n⊙⊙ -> Φ_I ∇ Φ_F\n",
		"[E_I|E_D] H (I|D) Φ_F -> Φ_F\nΦ_I Φ_F -> H Δ\n(E_I H I | E_D H D) ->. s\n",
		"alphabet a b \\,\nblock q {\nuse r\n}\n\\, -> ()\n",
		"-|- -> |-|\n",
		"\\|^Δ -> a\n",             // an escaped marked '|'
		"|^Δ -> a\na|^Δ|b -> \n",   // a marked '|' at the top level
		"actions s r\nspace A 0\n", // a space code reads back as the same symbols
		"\uFFFD -> a\n",            // a valid U+FFFD is a symbol like any other
	}
	for _, src := range srcs {
		f1, err := lang.Parse("t.anynt", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		out := lang.Format(f1)
		f2, err := lang.Parse("t.anynt", out)
		if err != nil {
			t.Errorf("formatted %q does not parse: %v", out, err)
			continue
		}
		if diff := cmp.Diff(f1, f2, ignorePositions); diff != "" {
			t.Errorf("round trip of %q changed the tree (-first +second):\n%s", src, diff)
		}
		if again := lang.Format(f2); string(again) != string(out) {
			t.Errorf("Format is not idempotent: %q then %q", out, again)
		}
	}
}
