package lsp

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/lang"
)

// The TextMate grammar (editors/anynt.tmLanguage.json) marks an escape it
// does not know as invalid, so it must know every ASCII spelling the
// language does, no more and no fewer: a spelling added to lang and not to
// the grammar would show as an error in the editor. (editors/test tokenises
// the corpus with the grammar; this ties it to lang.)
func TestGrammarKnowsEverySpelling(t *testing.T) {
	data, err := os.ReadFile("../editors/anynt.tmLanguage.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Repository map[string]struct {
			Patterns []struct {
				Match string `json:"match"`
				Name  string `json:"name"`
			} `json:"patterns"`
		} `json:"repository"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	var known []string
	for _, p := range g.Repository["escape"].Patterns {
		if m := regexp.MustCompile(`^\\\\\(\?:([A-Za-z|]+)\)`).FindStringSubmatch(p.Match); m != nil && p.Name == "constant.character.escape.anynt" {
			known = strings.Split(m[1], "|")
		}
	}
	var want []string
	for _, s := range lang.Spellings() {
		want = append(want, s.Name)
	}
	slices.Sort(known)
	if !slices.Equal(known, want) {
		t.Errorf("the grammar's escapes:\n%v\nlang's spellings:\n%v", known, want)
	}
}
