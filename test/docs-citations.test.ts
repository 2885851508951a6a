// Code and docs cite the repository's documents by heading, in the form docs/decisions.md "Heading"
// (docs/style.md "Files and names"). A heading renamed or a section moved leaves such a citation pointing
// at nothing, and nobody notices: this test reads every citation of the documents below in src/, test/,
// sdk/, docs/, README.md and ARCHITECTURE.md and checks that the file has a heading with exactly that text
// (its backticks aside: "GET /v1/keys" names the heading `GET /v1/keys`), or a bold label that opens one
// of its paragraphs or list items (docs/cluster.md "Lease" names "- **Lease.** A JetStream KV bucket ...").
// A comment wrapped across lines is read as one line, its comment markers dropped.
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const repo_root = resolve(import.meta.dirname, '..');
const cited_documents = ['decisions', 'api', 'design', 'cluster', 'upstreams', 'funding', 'operations', 'benchmarks'];
const scanned_roots = ['src', 'test', 'sdk', 'docs', 'README.md', 'ARCHITECTURE.md'];
const scanned_extensions = /\.(ts|tsx|js|mjs|md|cfg)$/;
const this_file = relative(repo_root, import.meta.filename);

/** Every text file under `path`, skipping dependencies, build output and hidden folders. */
function files_under(path: string): string[] {
  const absolute = join(repo_root, path);
  if (!statSync(absolute, { throwIfNoEntry: false })) return [];
  if (!statSync(absolute).isDirectory()) return [path];
  const files: string[] = [];
  for (const name of readdirSync(absolute)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const child = join(path, name);
    if (statSync(join(repo_root, child)).isDirectory()) files.push(...files_under(child));
    else if (scanned_extensions.test(name)) files.push(child);
  }
  return files;
}

/**
 * What a citation of a markdown document may name: its headings (any level), with and without their backticks,
 * and the bold labels that open a paragraph or a list item, without their closing full stop. Lines in
 * fenced code blocks are skipped: there `# ` is a shell comment.
 */
function headings_of(document: string): Set<string> {
  const headings = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(join(repo_root, 'docs', `${document}.md`), 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*$/.exec(line);
    if (heading !== null) {
      headings.add(heading[1]);
      headings.add(heading[1].replaceAll('`', ''));
    }
    const label = /^\s*(?:- )?\*\*([^*]+?)\.?\*\*/.exec(line);
    if (label !== null) headings.add(label[1]);
  }
  return headings;
}

interface Citation { file: string; line: number; document: string; heading: string }

/** The citations of one file: `docs/NAME.md "Heading"`, or several headings `"A", "B"` after one name. */
function citations_in(file: string): Citation[] {
  const lines = readFileSync(join(repo_root, file), 'utf8').split('\n');
  // One line of text, each source line's indentation and comment markers (`//`, `*`, `#`) dropped, so
  // that a citation wrapped in a comment reads as written; line_starts maps an offset back to its line.
  let text = '';
  const line_starts: number[] = [];
  for (const line of lines) {
    line_starts.push(text.length);
    text += line.replace(/^\s*(\/\/+|\/?\*+\/?|#+(?=\s))?\s*/, '') + ' ';
  }
  const names = cited_documents.join('|');
  const citation = new RegExp(`(?<![\\w./-])(?:docs/)?(${names})\\.md\`?,?((?:\\s*(?:,|and)?\\s*"[^"]+")+)`, 'g');
  const found: Citation[] = [];
  for (const match of text.matchAll(citation)) {
    let line = 0;
    while (line + 1 < line_starts.length && line_starts[line + 1] <= match.index) line += 1;
    for (const heading of match[2].matchAll(/"([^"]+)"/g)) {
      // A citation inside a single-quoted string escapes its apostrophes (\\'); the heading has none.
      found.push({ file, line: line + 1, document: match[1], heading: heading[1].replaceAll("\\'", "'") });
    }
  }
  return found;
}

const headings = new Map(cited_documents.map((document) => [document, headings_of(document)]));
const citations = scanned_roots.flatMap(files_under).filter((file) => file !== this_file).flatMap(citations_in);

t.test('the scan finds the citations it is meant to check', async (t) => {
  t.ok(citations.length > 200, `${citations.length} citations found in src/, test/, sdk/, docs/ and the top-level documents`);
  t.ok(
    citations.some((c) => c.file === join('src', 'errors.ts') && c.document === 'decisions' && c.heading === 'Errors we add'),
    'the citation of docs/decisions.md "Errors we add" in src/errors.ts is found',
  );
  t.ok(
    citations.some((c) => c.file === join('src', 'front', 'auth.ts') && c.heading === 'Scopes, allowlists, keys'),
    'a citation wrapped across two comment lines (src/front/auth.ts) is read whole',
  );
});

t.test('every cited heading exists in the document it names', async (t) => {
  for (const { file, line, document, heading } of citations) {
    t.ok(headings.get(document)?.has(heading), `${file}:${line} cites docs/${document}.md "${heading}", a heading of that file`);
  }
});
