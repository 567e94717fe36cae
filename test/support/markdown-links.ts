import path from 'node:path';

// Pure functions for checking the relative links of Markdown documents, as GitHub renders them.
// They read nothing themselves: the caller hands in the documents and a view of the repository.

/** A Markdown file, `path` relative to the repository root with `/` separators. */
export interface MarkdownDocument {
  path: string;
  content: string;
}

/** An inline link or image destination found in a document. */
export interface MarkdownLink {
  target: string;
  /** 1-based line of the destination. */
  line: number;
  image: boolean;
}

/** What the check needs of the repository; paths are relative to its root. */
export interface RepositoryView {
  exists(file: string): boolean;
  /** The text of a file, for the headings of a Markdown link target. */
  read(file: string): string;
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const NOT_A_PARAGRAPH_LINE = /^\s*$|^ {0,3}(?:[#>|]|[-*+][ \t]|\d+[.)][ \t])/;
const REFERENCE_DEFINITION = /^ {0,3}\[(?!\^)[^\]]+\]:[ \t]*(<[^>]*>|\S+)/;
const URI_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The document with fenced code blocks and inline code spans replaced by spaces (line breaks
 * kept, so line numbers still hold): what is left is what GitHub renders as Markdown.
 */
export function stripCode(markdown: string): string {
  // Code spans may wrap onto the next line, never past a blank line (the paragraph's end).
  return stripFencesOnly(markdown)
    .split(/(\n[ \t]*\n)/)
    .map(blankCodeSpans)
    .join('');
}

function blankCodeSpans(paragraph: string): string {
  let out = '';
  let i = 0;
  while (i < paragraph.length) {
    if (paragraph[i] !== '`') {
      out += paragraph[i++];
      continue;
    }
    let run = 0;
    while (paragraph[i + run] === '`') run++;
    const close = findBacktickRun(paragraph, i + run, run);
    if (close < 0) {
      // An unmatched run is literal text.
      out += paragraph.slice(i, i + run);
      i += run;
      continue;
    }
    out += paragraph.slice(i, close + run).replace(/[^\n]/g, ' ');
    i = close + run;
  }
  return out;
}

function findBacktickRun(text: string, from: number, length: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] !== '`') continue;
    let run = 0;
    while (text[i + run] === '`') run++;
    if (run === length) return i;
    i += run - 1;
  }
  return -1;
}

/**
 * GitHub's anchor for a heading's text (github-slugger): inline Markdown rendered to text,
 * lower-cased, every character but letters, digits, `_`, `-` and spaces removed, spaces → `-`.
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text of every heading (ATX `#` and setext underlined), outside code blocks, in order. */
export function headingTexts(markdown: string): string[] {
  const lines = stripFencesOnly(markdown).split('\n');
  const headings: string[] = [];
  lines.forEach((line, index) => {
    const atx = ATX_HEADING.exec(line);
    if (atx) {
      headings.push((atx[1] ?? '').trim());
      return;
    }
    const previous = lines[index - 1];
    if (index > 0 && SETEXT_UNDERLINE.test(line) && previous !== undefined && !NOT_A_PARAGRAPH_LINE.test(previous)) {
      headings.push(previous.trim());
    }
  });
  return headings;
}

/** The anchors GitHub gives the headings: a repeated slug gets `-1`, `-2`, … */
export function headingSlugs(markdown: string): string[] {
  const occurrences = new Map<string, number>();
  return headingTexts(markdown).map((text) => {
    const base = githubSlug(text);
    let slug = base;
    while (occurrences.has(slug)) {
      const count = occurrences.get(base)! + 1;
      occurrences.set(base, count);
      slug = `${base}-${count}`;
    }
    occurrences.set(slug, 0);
    return slug;
  });
}

/** Fenced blocks blanked, code spans kept (a heading's `code` is part of its text). */
function stripFencesOnly(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const opening = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        if (opening && opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening)
          fence = undefined;
        return '';
      }
      if (opening) {
        fence = opening;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** Every inline link and image destination, and reference definitions, outside code. */
export function extractLinks(markdown: string): MarkdownLink[] {
  const text = stripCode(markdown);
  const links: MarkdownLink[] = [];
  const lineAt = lineCounter(text);
  for (let i = text.indexOf(']('); i >= 0; i = text.indexOf('](', i + 2)) {
    if (text[i - 1] === '\\') continue;
    const destination = readDestination(text, i + 2);
    if (destination === undefined) continue;
    links.push({ target: destination.target, line: lineAt(destination.start), image: isImage(text, i) });
  }
  text.split('\n').forEach((line, index) => {
    const definition = REFERENCE_DEFINITION.exec(line);
    if (definition) links.push({ target: definition[1]!.replace(/^<|>$/g, ''), line: index + 1, image: false });
  });
  return links.sort((a, b) => a.line - b.line);
}

function readDestination(text: string, from: number): { target: string; start: number } | undefined {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] === '<') {
    const end = text.indexOf('>', i);
    if (end < 0 || text.slice(i, end).includes('\n')) return undefined;
    return { target: text.slice(i + 1, end), start: i + 1 };
  }
  const start = i;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (/\s/.test(c)) break;
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  if (i === start) return undefined;
  return { target: text.slice(start, i), start };
}

/** Whether the `]` at `close` ends the text of an image (`![…](…)`). */
function isImage(text: string, close: number): boolean {
  let depth = 0;
  for (let i = close - 1; i >= 0; i--) {
    const c = text[i];
    if (c === '\n' && text[i - 1] === '\n') return false;
    if (c === ']' && text[i - 1] !== '\\') depth++;
    if (c === '[' && text[i - 1] !== '\\') {
      if (depth === 0) return text[i - 1] === '!';
      depth--;
    }
  }
  return false;
}

function lineCounter(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
    return line + 1;
  };
}

/** Links to other sites (any URI scheme, `//host`): not checked. */
export function isExternal(target: string): boolean {
  return URI_SCHEME.test(target) || target.startsWith('//');
}

/**
 * Every relative link or image of the documents whose file does not exist, or whose `#anchor`
 * names no heading of the Markdown file it points to (the document itself for a bare `#anchor`),
 * as `file:line: target (reason)`. Anchors into other kinds of files (line anchors of source
 * files) are not checked.
 */
export function findBrokenLinks(documents: readonly MarkdownDocument[], repository: RepositoryView): string[] {
  const slugCache = new Map<string, Set<string>>();
  const slugsOf = (file: string, content?: string) => {
    let slugs = slugCache.get(file);
    if (!slugs) {
      slugs = new Set(headingSlugs(content ?? repository.read(file)));
      slugCache.set(file, slugs);
    }
    return slugs;
  };
  const broken: string[] = [];
  for (const document of documents) {
    for (const link of extractLinks(document.content)) {
      if (isExternal(link.target)) continue;
      const reason = checkTarget(document, link.target, repository, slugsOf);
      if (reason) broken.push(`${document.path}:${link.line}: ${link.target} (${reason})`);
    }
  }
  return broken;
}

function checkTarget(
  document: MarkdownDocument,
  target: string,
  repository: RepositoryView,
  slugsOf: (file: string, content?: string) => Set<string>,
): string | undefined {
  const hash = target.indexOf('#');
  const filePart = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
  const anchor = hash < 0 ? '' : safeDecode(target.slice(hash + 1));
  let file = document.path;
  if (filePart !== '') {
    const decoded = safeDecode(filePart);
    file = decoded.startsWith('/')
      ? path.posix.normalize(decoded.slice(1))
      : path.posix.normalize(path.posix.join(path.posix.dirname(document.path), decoded));
    file = file.replace(/\/$/, '');
    if (file === '..' || file.startsWith('../')) return 'outside the repository';
    if (!repository.exists(file)) return `no file ${file}`;
  }
  if (anchor === '' || !/\.md$/i.test(file)) return undefined;
  const slugs = file === document.path ? slugsOf(file, document.content) : slugsOf(file);
  return slugs.has(anchor) ? undefined : `no heading #${anchor} in ${file}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
