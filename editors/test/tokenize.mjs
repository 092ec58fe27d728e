// Tokenises every .anynt file of corpus/ and stdlib/ with the TextMate
// grammar editors/anynt.tmLanguage.json, in VS Code's own TextMate engine
// (vscode-textmate, with vscode-oniguruma's regular expressions, pinned in
// package.json), and fails on any token the grammar marks invalid
// (invalid.illegal.*: an unknown escape, a bracket closed that was not
// opened). Fixtures check that the grammar means what it says: the scopes
// of the papers' symbols, of keywords and only where a statement is a
// declaration, and that the invalid marks do fire. It checks too that the
// VS Code extension's copy of the grammar is the grammar.
//
//   npm ci --prefix editors/test && node editors/test/tokenize.mjs
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import vsctm from 'vscode-textmate';
import oniguruma from 'vscode-oniguruma';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const grammarPath = join(root, 'editors', 'anynt.tmLanguage.json');
const require = createRequire(import.meta.url);

await oniguruma.loadWASM(readFileSync(join(dirname(require.resolve('vscode-oniguruma')), 'onig.wasm')).buffer);
const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async (scopeName) =>
    scopeName === 'source.anynt' ? vsctm.parseRawGrammar(readFileSync(grammarPath, 'utf8'), grammarPath) : null,
});
const grammar = await registry.loadGrammar('source.anynt');

let failures = 0;
function fail(msg) {
  console.error('FAIL ' + msg);
  failures++;
}

// tokens returns every token of a text: its line (from 1), text and scopes.
function tokens(text) {
  const out = [];
  let stack = vsctm.INITIAL;
  text.replace(/^\uFEFF/, '').split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      out.push({ line: i + 1, col: t.startIndex + 1, text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes });
    }
    stack = r.ruleStack;
  });
  return out;
}

function invalid(toks) {
  return toks.filter((t) => t.scopes.some((s) => s.startsWith('invalid')));
}

// Every corpus and library file: no invalid token.
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return name.endsWith('.anynt') ? [p] : [];
  });
}
const files = [...walk(join(root, 'corpus')), ...walk(join(root, 'stdlib'))];
if (files.length < 10) fail(`only ${files.length} files found under corpus/ and stdlib/`);
let count = 0;
for (const f of files) {
  const toks = tokens(readFileSync(f, 'utf8'));
  count += toks.length;
  for (const t of invalid(toks)) {
    fail(`${relative(root, f)}:${t.line}:${t.col}: ${JSON.stringify(t.text)} is ${t.scopes.at(-1)}`);
  }
}

// Fixtures: [text, the token's text, a scope it must have (or, with !,
// must not have)].
const fixtures = [
  ['π [⊙] ω1 -> ∇ Φ', 'π', 'variable.language.agent.anynt'],
  ['π [⊙] ω1 -> ∇ Φ', '⊙', 'constant.language.goodevil.anynt'],
  ['π [⊙] ω1 -> ∇ Φ', '->', 'keyword.operator.arrow.anynt'],
  ['π [⊙] ω1 -> ∇ Φ', '∇', 'keyword.operator.recall.anynt'],
  ['π [⊙] ω1 -> ∇ Φ', '[', 'punctuation.section.group.begin.anynt'],
  ['⊕ ⊖ → Δ', '⊕', 'constant.language.good.anynt'],
  ['⊕ ⊖ → Δ', '⊖', 'constant.language.evil.anynt'],
  ['⊕ ⊖ → Δ', '→', 'keyword.operator.arrow.anynt'],
  ['⊕ ⊖ → Δ', 'Δ', 'keyword.operator.store.anynt'],
  ['RΦ ->. l', '.', 'keyword.operator.terminating.anynt'],
  ['S (L|R)^Δ -> S', '|', 'punctuation.separator.alternative.anynt'],
  ['S (L|R)^Δ -> S', '^', 'keyword.operator.mark.anynt'],
  ['[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]', 'χ', 'variable.language.wildcard.anynt'],
  ['[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]', '∉', 'keyword.operator.notin.anynt'],
  ['[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]', '2', 'variable.parameter.binding.anynt'],
  ['\\pi \\omega1 -> x', '\\pi', 'constant.character.escape.anynt'],
  ['\\pi \\omega1 -> x', '\\omega', 'constant.character.escape.anynt'],
  ['\\foo -> x', '\\foo', 'invalid.illegal.unknown-escape.anynt'],
  ['\\pix -> x', '\\pix', 'invalid.illegal.unknown-escape.anynt'],
  ['a) -> b', ')', 'invalid.illegal.stray-bracket.anynt'],
  ['}', '}', 'invalid.illegal.stray-brace.anynt'],
  ['# a comment -> with an arrow', '# a comment -> with an arrow', 'comment.line.number-sign.anynt'],
  ['use erase-separators', 'use', 'keyword.other.use.anynt'],
  ['use erase-separators', 'erase-separators', 'entity.name.function.block.anynt'],
  ['set cycle off', 'set', 'keyword.other.setting.anynt'],
  ['set cycle off', 'off', 'support.constant.setting.anynt'],
  ['actions s l r', 'actions', 'keyword.other.declaration.anynt'],
  ['goodevil pattern 2 0 3', 'pattern', 'keyword.other.pattern.anynt'],
  // A rule whose symbols spell a keyword is a rule.
  ['set -> x', 'set', '!keyword.other.setting.anynt'],
  ['use -> x', 'use', '!keyword.other.use.anynt'],
  // A block's closing brace closes it; a rule inside is a rule.
  ['object ω1 {\n\tπ -> x\n}', '}', 'punctuation.section.block.end.anynt'],
  ['object ω1 {\n\tπ -> x\n}', 'ω1', 'entity.name.type.object.anynt'],
  ['object ω1 {\n\tπ -> x\n}', 'π', 'variable.language.agent.anynt'],
  ['block b {\n\tuse c\n}', 'c', 'entity.name.function.block.anynt'],
  ['space table {\n\t1 1 2\n}', '2', 'constant.numeric.cell.anynt'],
];
for (const [text, want, scope] of fixtures) {
  const toks = tokens(text).filter((t) => t.text.trim() === want);
  if (toks.length === 0) {
    fail(`${JSON.stringify(text)}: no token ${JSON.stringify(want)} (tokens: ${JSON.stringify(tokens(text).map((t) => t.text))})`);
    continue;
  }
  const has = toks.some((t) => t.scopes.includes(scope.replace(/^!/, '')));
  if (scope.startsWith('!') ? has : !has) {
    fail(`${JSON.stringify(text)}: ${JSON.stringify(want)} has ${JSON.stringify(toks.map((t) => t.scopes))}, want ${scope}`);
  }
}

// The VS Code extension ships a copy (an extension's files must lie in its
// folder): it must be the grammar.
const copy = join(root, 'editors', 'vscode', 'syntaxes', 'anynt.tmLanguage.json');
if (readFileSync(copy, 'utf8') !== readFileSync(grammarPath, 'utf8')) {
  fail(`${relative(root, copy)} differs from editors/anynt.tmLanguage.json: cp editors/anynt.tmLanguage.json ${relative(root, copy)}`);
}

if (failures > 0) {
  console.error(`${failures} failure(s)`);
  process.exit(1);
}
console.log(`ok: ${files.length} files, ${count} tokens, none invalid; ${fixtures.length} fixtures`);
