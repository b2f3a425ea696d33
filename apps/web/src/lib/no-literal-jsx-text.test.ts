import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * Every visible string goes through i18n (STYLE.md). This fails on JSX text with letters
 * (`<b>Save</b>`) and on literal strings with letters in attributes people read or hear
 * (`aria-label="Close"`, `title`, `placeholder`, `alt`, `label`). Digits, punctuation and
 * symbols (`404`, `·`, `↑`) are allowed.
 */
const webSrc = resolve(import.meta.dirname, '..');
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
  'description',
  'error',
]);
const HAS_LETTER = /\p{L}/u;

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(full);
    return entry.name.endsWith('.tsx') && !entry.name.includes('.test.') ? [full] : [];
  });
}

/** Literal text found in one file's JSX, as `file:line "text"`. */
export function findLiteralText(fileName: string, code: string): string[] {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${fileName}:${line + 1} "${text.trim()}"`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && HAS_LETTER.test(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const init = node.initializer;
      const literal = ts.isStringLiteral(init)
        ? init
        : ts.isJsxExpression(init) &&
            init.expression &&
            (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression))
          ? init.expression
          : null;
      if (literal && HAS_LETTER.test(literal.text)) report(node, literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('no literal text in JSX', () => {
  it('catches what it should (self-check)', () => {
    const sample = `const A = () => <div title="Hello" aria-label={'Close'} data-x="ok"><b>Save</b> {t('x')} · 404 <I label={t('y')} /></div>;`;
    expect(findLiteralText('sample.tsx', sample)).toEqual([
      'sample.tsx:1 "Hello"',
      'sample.tsx:1 "Close"',
      'sample.tsx:1 "Save"',
    ]);
  });

  it('finds none in the app', () => {
    const found = tsxFiles(webSrc).flatMap((file) =>
      findLiteralText(relative(webSrc, file), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
