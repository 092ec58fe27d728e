// Package lang is the front end of the notation for extended Markov
// algorithms: lexer, grammar, AST with positions, and formatter.
//
// The notation is the papers' own (Hernández-Orallo 2010b, §6; Insa-Cabrera
// 2011, the thesis, §3.6.6; docs/references.md): symbols are one character
// with an optional subscript (ω1, A12, E_I), written juxtaposed (HIIIDDD is
// seven symbols); rules are LHS -> RHS or LHS ->. RHS (→ and →· too); the
// sugar is optional groups [ ], alternatives ( | ), the wildcard χ and (χ ∉
// {…}), binding subscripts after ), ] and χ, the mark ^Δ on a left-hand side
// element, and Δ and ∇ on a right-hand side. Every special character has a
// LaTeX-style ASCII spelling (\pi, \odot, \chi, …). docs/language.md is the
// reference.
//
// Design:
//
//   - The lexer is hand-written (lexer.go) because symbols are not words: a
//     run of juxtaposed characters is split into symbols with their exact
//     positions as it is read, subscripts bind only to letters (so 101 is
//     three symbols and A1 one), '|' is a token that the grammar turns into a
//     symbol at the top level of a rule side, and a subscript right after
//     ')' or ']' binds a group.
//   - The grammar is participle/v2 (grammar.go), fed with our tokens. A file
//     is cut into statements at newlines and ';' and each statement is parsed
//     on its own, so that every mistake of a file is reported, not just the
//     first; a statement with an arrow is a rule, any other a declaration
//     (alphabet, block NAME {, use NAME, }). The grammar's structures are
//     concrete syntax; parse.go converts them to the AST (ast.go).
//   - The front end is linear in its input, in time and memory (a 5 MB
//     file of half a million rules parses in under a second; through
//     participle alone it took 100 s and 1.5 GB). Rules,
//     the declarations use NAME, block NAME { and }, and those an
//     environment file is made of (actions, space table {, goodevil
//     pattern, reward, place, set: a Λ_one test writes and parses seven
//     such files) are read by a hand-written reader (ruleparse.go) that
//     builds the AST at once; participle, which spends kilobytes and
//     microseconds on a statement, reads what the reader does not, and so
//     gives every syntax error in its own words. The reader accepts
//     a subset of participle's language and builds the same tree: tests and
//     fuzz targets (FuzzRuleReader, FuzzDeclReader) compare the two on
//     every statement, and a golden test
//     pins the format and the errors of a large generated file
//     (internal/bigsource) to what the participle parser gave. The lexer
//     hands out one token at a time, so that only the statement being read
//     has tokens in memory; symbols and rules are cut from chunks, a
//     subscripted symbol's name is the source's own text, and the formatter
//     writes into one buffer. What a large file costs is then its AST:
//     about 400 bytes a rule of four symbols, most of it the symbols'
//     positions.
//   - What a file may hold is bounded (limits.go), because linear is not
//     enough: a symbol is one byte of text and about a hundred bytes of
//     AST, so a file of 64 MiB (MaxSourceSize) could take gigabytes. The
//     tokenizer counts statements, tokens (every symbol one), the tokens
//     of the statement being read, and errors, and stops at the first
//     that passes its bound, with a LimitError there: a file past a bound
//     costs what one just past it does, not what its size would. Runs are
//     cut short inside, so even one rule of 60 million symbols is refused
//     after a million. Participle reads only statements of at most
//     MaxGrammarTokens tokens, being a hundred times dearer a token.
//   - Errors are positioned (file:line:col, columns in characters), collected
//     in an ErrorList and sorted. Nothing panics on user input: brackets
//     nest at most MaxDepth deep, checked on the tokens before the grammar
//     recurses into them, so that no file can exhaust the stack of the
//     parser, the formatter or the compiler. A UTF-8 byte-order mark at the
//     start of a file is skipped.
//   - Format prints the canonical form and keeps comments; parsing its
//     output gives the same tree (the fuzz target checks it).
//   - ParseClassic reads the classic one-rule-per-line format of the
//     literature (every character a symbol) into the same AST; like Parse,
//     it returns the well-formed lines' rules beside the errors.
//   - PlainRule is a rule of an ordered expansion, the meaning of the sugar.
//     It lives here, beside the AST, rather than in the compiler that writes
//     it, so that the reference interpreter, which runs it, depends on
//     nothing but this package, and the VM's own tests can use that oracle.
package lang
