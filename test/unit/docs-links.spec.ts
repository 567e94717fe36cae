import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from '@jest/globals';

import {
  extractLinks,
  findBrokenLinks,
  githubSlug,
  headingSlugs,
  type MarkdownDocument,
  type RepositoryView,
} from '../support/markdown-links.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every Markdown file under docs/, paths relative to the repository root. */
function documentation(): MarkdownDocument[] {
  const pages = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.posix.join('docs', file.split(path.sep).join('/')));
  return ['README.md', ...pages.sort()].map((file) => ({
    path: file,
    content: readFileSync(path.join(ROOT, file), 'utf8'),
  }));
}

const workTree: RepositoryView = {
  exists: (file) => existsSync(path.join(ROOT, file)),
  read: (file) => readFileSync(path.join(ROOT, file), 'utf8'),
};

/** A repository made of the given files only. */
function inMemory(files: Record<string, string>): RepositoryView {
  return {
    exists: (file) => file in files || Object.keys(files).some((name) => name.startsWith(`${file}/`)),
    read: (file) => files[file] ?? '',
  };
}

describe('documentation links', () => {
  it('checks README.md and the docs pages', () => {
    const paths = documentation().map((document) => document.path);
    expect(paths).toEqual(expect.arrayContaining(['README.md', 'docs/rest.md', 'docs/rpc.md', 'docs/performance.md']));
  });

  it('has no relative link or image whose file or heading is missing', () => {
    expect(findBrokenLinks(documentation(), workTree)).toEqual([]);
  });

  it('reports planted broken links and anchors, and leaves external links and code alone', () => {
    const files = {
      'README.md': '# Title\n',
      'docs/rest.md': '# REST interface (JSON:API v1.1)\n\n## Count strategies\n\n## Notes\n\n## Notes\n',
      'docs/images/shot.png': '',
    };
    const page = [
      '# A page',
      '',
      'Fine: [REST](rest.md), [counts](rest.md#count-strategies), [second notes](rest.md#notes-1),',
      '[top](#a-page), [readme](../README.md#title), ![shot](images/shot.png), [dir](images/).',
      'External: [spec](https://jsonapi.org/format/#x), [mail](mailto:a@b.c), [`code`](rest.md).',
      'In code: `[not a link](missing.md)` and',
      '',
      '```md',
      '[also not a link](missing.md)',
      '```',
      '',
      'Broken: [gone](gone.md), [bad anchor](rest.md#counts), [self](#nowhere),',
      '![missing image](images/missing.png), [third notes](rest.md#notes-2).',
    ].join('\n');
    const broken = findBrokenLinks(
      [{ path: 'docs/page.md', content: page }],
      inMemory({ ...files, 'docs/page.md': page }),
    );
    expect(broken).toEqual([
      'docs/page.md:12: gone.md (no file docs/gone.md)',
      'docs/page.md:12: rest.md#counts (no heading #counts in docs/rest.md)',
      'docs/page.md:12: #nowhere (no heading #nowhere in docs/page.md)',
      'docs/page.md:13: images/missing.png (no file docs/images/missing.png)',
      'docs/page.md:13: rest.md#notes-2 (no heading #notes-2 in docs/rest.md)',
    ]);
  });

  it('finds images and links, with their lines', () => {
    expect(extractLinks('a [b](c.md)\n![d](e.png "title") [f](<g h.md>)')).toEqual([
      { target: 'c.md', line: 1, image: false },
      { target: 'e.png', line: 2, image: true },
      { target: 'g h.md', line: 2, image: false },
    ]);
  });

  it('slugs headings as GitHub does, numbering repeats', () => {
    expect(githubSlug('REST interface (JSON:API v1.1)')).toBe('rest-interface-jsonapi-v11');
    expect(githubSlug('Without the database (`--no-db`)')).toBe('without-the-database---no-db');
    expect(githubSlug("The sample app's policies")).toBe('the-sample-apps-policies');
    expect(githubSlug('With @nestjs/swagger')).toBe('with-nestjsswagger');
    expect(githubSlug('See [Options](options.md) and maxTake_x')).toBe('see-options-and-maxtake_x');
    expect(headingSlugs('# Soak\n\n## Soak\n\n```\n# not a heading\n```\n\nSoak\n---\n')).toEqual([
      'soak',
      'soak-1',
      'soak-2',
    ]);
  });
});
