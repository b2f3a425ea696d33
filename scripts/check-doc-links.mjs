// Every relative link and #anchor in README.md, ARCHITECTURE.md and docs/*.md resolves: the file
// (or folder) exists, and an anchor names a heading of the file it points into, slugged as GitHub
// does. Run by `npm run lint`; prints each broken link as file:line and exits 1 when there is one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const docs = join(root, 'docs');
const files = [
  join(root, 'README.md'),
  join(root, 'ARCHITECTURE.md'),
  ...readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(docs, name)),
];

/** The lines of a Markdown file outside fenced code blocks, with their 1-based numbers. */
function proseLines(text) {
  const lines = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push({ line: line.replace(/`[^`]*`/g, ''), number: index + 1 });
  });
  return lines;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(path) {
  const anchors = new Set();
  const seen = new Map();
  for (const { line } of proseLines(readFileSync(path, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const broken = [];
for (const file of files) {
  for (const { line, number } of proseLines(readFileSync(file, 'utf8'))) {
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: … are not checked
      const [pathPart, anchor] = target.split('#', 2);
      const path = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      const where = `${relative(root, file)}:${number}`;
      if (!existsSync(path)) broken.push(`${where}: ${target}: no such file`);
      else if (anchor !== undefined && !(statSync(path).isFile() && anchorsOf(path).has(anchor)))
        broken.push(`${where}: ${target}: no heading #${anchor} in ${relative(root, path)}`);
    }
  }
}

if (broken.length > 0) {
  console.error(`Broken links in the docs (${broken.length}):\n${broken.join('\n')}`);
  process.exit(1);
}
console.log(`doc links: ${files.length} files checked, every link resolves`);
