package lsp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// MaxHoverRules is the most plain rules a hover shows of a rule's
// expansion: a rule of a few χ may stand for thousands, which anynt expand
// prints all of.
const MaxHoverRules = 40

// hover shows, over a sugared rule (one with an optional or alternative
// group or a χ), its ordered expansion: the plain rules it stands for, in
// order, as anynt expand prints them, in the alphabet of the rule list it
// is in. Over a plain rule, or anything else, it shows nothing.
func (s *server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	t := s.doc(p.TextDocument.URI)
	if t == nil {
		return nil, nil
	}
	name := fileName(p.TextDocument.URI)
	f, err := lang.Parse(name, []byte(t.s))
	if err != nil {
		return nil, nil // the expansion is of a whole rule list, which must parse
	}
	at, ok := entryAt(f, t.langPos(name, t.offset(p.Position)))
	if !ok {
		return nil, nil
	}
	rule, ok := at.entry.(*lang.Rule)
	if !ok || !sugared(rule) {
		return nil, nil
	}
	where, plain, more := expansion(f, rule, at.block)
	if plain == nil {
		return nil, nil
	}
	var code strings.Builder
	for _, r := range plain {
		code.WriteString(compiler.PlainString(r))
		code.WriteByte('\n')
	}
	// A symbol may be a backtick: the fence is longer than any run of them.
	fence := "```"
	for strings.Contains(code.String(), fence) {
		fence += "`"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Ordered expansion, as `%s` prints it:\n\n%sanynt\n%s%s\n", where, fence, code.String(), fence)
	if more {
		fmt.Fprintf(&b, "\nThe first %d plain rules; more follow.\n", MaxHoverRules)
	}
	start := t.langOffset(rule.At)
	rng := t.rangeOf(start, t.starts[rule.At.Line-1]+len(t.line(rule.At.Line-1)))
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: b.String()},
		Range:    &rng,
	}, nil
}

// sugared reports whether a rule has sugar to expand: a group or a χ (the
// mark ^Δ, Δ and ∇ are not sugar: a plain rule holds them).
func sugared(r *lang.Rule) bool {
	for _, side := range [][]lang.Elem{r.LHS, r.RHS} {
		for _, e := range side {
			switch e.(type) {
			case *lang.Group, *lang.Wildcard:
				return true
			}
		}
	}
	return false
}

// errEnough stops an expansion once the hover has what it shows.
var errEnough = errors.New("enough plain rules")

// expansion expands the rule list a rule is in, as anynt expand does,
// and keeps the plain rules that rule stands for, at most MaxHoverRules of
// them (more reports that there are more). The rule list is the main
// algorithm of a rule file, or the behaviour of an environment the block
// is (env.LoadUnit: its alphabet starts with the environment's symbols). A
// rule of a shared block has its expansion at each use: the first rule
// list that uses it decides. where is the anynt expand command that prints it; plain is nil when no
// list expands the rule (an environment that does not load, a block no list
// uses).
func expansion(f *lang.File, rule *lang.Rule, block *lang.Block) (where string, plain []lang.PlainRule, more bool) {
	try := func(file *lang.File, opts compiler.Options) bool {
		plain, more = nil, false
		err := compiler.ExpandEach(file, opts, func(r lang.PlainRule) error {
			switch {
			case r.Pos != rule.At && plain != nil:
				return errEnough // past the rule's own plain rules
			case r.Pos != rule.At:
				return nil
			case len(plain) == MaxHoverRules:
				more = true
				return errEnough
			}
			plain = append(plain, r)
			return nil
		})
		return (err == nil || errors.Is(err, errEnough)) && plain != nil
	}
	if !env.IsEnvironment(f) {
		if try(f, compiler.Options{}) {
			return "anynt expand", plain, more
		}
		return "", nil, false
	}
	var candidates []*lang.Block
	if block != nil && block.Kind != lang.SharedBlock {
		candidates = []*lang.Block{block}
	} else {
		for _, d := range f.Decls {
			if b, ok := d.(*lang.Block); ok && b.Kind != lang.SharedBlock && b.Kind != lang.TableBlock {
				candidates = append(candidates, b)
			}
		}
	}
	for _, b := range candidates {
		u, err := env.LoadUnit(f, b)
		if err != nil {
			return "", nil, false
		}
		if try(u.File, compiler.Options{Prefix: u.Prefix}) {
			return "anynt expand " + behaviourName(b), plain, more
		}
	}
	return "", nil, false
}

// behaviourName names a behaviour as anynt expand's --object does.
func behaviourName(b *lang.Block) string {
	switch b.Kind {
	case lang.GoodEvilBlock:
		return "--object goodevil"
	case lang.GeneratorBlock:
		return "--object generator"
	}
	return "--object " + b.Name
}
