import { readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';

import { ERROR_CODES } from '../../lib/errors/error-codes.js';
import { defaultsOf, type OptionSpec, type SomeOptionTable } from '../../lib/options/option-spec.js';
import { OPTION_TABLE } from '../../lib/options/option-table.js';

// The docs state the options and the error codes for readers; the code states them for the
// module. These tests fail when the two disagree (as Fastify checks its error catalogue).

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The text of the section under `heading`, up to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length;
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = lines.findIndex((line, index) => index > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** A cell as a reader sees it: link texts without their targets, code without backticks. */
const plain = (cell: string) =>
  cell
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replaceAll('`', '')
    .replaceAll('\\|', '|')
    .trim();

/** The body rows of the Markdown tables in a text, as raw cells (headers and separators left out). */
function tableRows(text: string): string[][] {
  const lines = text.split('\n');
  return lines
    .filter((line, index) => line.startsWith('|') && !line.startsWith('|---') && !lines[index + 1]?.startsWith('|---'))
    .map((line) => line.slice(1, -1).split(/(?<!\\)\|/));
}

/** Rows naming one option (`limits.maxFilters`), by name: the default column, as a reader sees it. */
function documentedDefaults(text: string, defaultColumn: number): Record<string, string> {
  return Object.fromEntries(
    tableRows(text).flatMap((cells) => {
      const name = /^`([\w.]+)`$/.exec(cells[0].trim()) ?? /^`([\w.]+)`$/.exec(cells[1].trim());
      return name ? [[name[1], plain(cells[defaultColumn])]] : [];
    }),
  );
}

/** A default as the docs write it: JavaScript literals, single-quoted strings. */
function render(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(render).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{ ${Object.entries(value)
      .map(([name, member]) => `${name}: ${render(member)}`)
      .join(', ')} }`;
  return String(value);
}

const documented = (spec: OptionSpec): string =>
  spec.documented ??
  ('default' in spec ? render(spec.default) : spec.options ? render(defaultsOf(spec.options)) : 'none');

/** Every option and sub-option of a table by dotted name. */
function flatten(table: SomeOptionTable, parent = ''): [string, OptionSpec][] {
  return Object.entries(table).flatMap(([name, spec]) => [
    [`${parent}${name}`, spec],
    ...(spec.options ? flatten(spec.options, `${parent}${name}.`) : []),
  ]);
}

const SPECS = flatten(OPTION_TABLE);
/** Each option's default as the docs state it. */
const OPTIONS = Object.fromEntries(SPECS.map(([name, spec]) => [name, documented(spec)]));
const pick = (names: string[]) => Object.fromEntries(names.map((name) => [name, OPTIONS[name]]));
const isLimit = (name: string) => name.startsWith('limits.');
const CORE = Object.entries(OPTION_TABLE)
  .flatMap(([name, spec]) => ('core' in spec ? [name] : []))
  .sort();

describe('docs/options.md', () => {
  const doc = read('docs/options.md');
  const core = documentedDefaults(section(doc, '## Core options'), 2);
  const advanced = documentedDefaults(section(doc, '## Advanced options'), 2);
  const sub = documentedDefaults(section(doc, '## Sub-options'), 1);

  it('states every option and sub-option (but the limits) with its default', () => {
    expect({ ...core, ...advanced, ...sub }).toStrictEqual(pick(Object.keys(OPTIONS).filter((name) => !isLimit(name))));
  });

  it('lists the core options under Core options, and the others under Advanced options', () => {
    expect(Object.keys(core).sort()).toEqual(CORE);
    expect(Object.keys(advanced).filter((name) => CORE.includes(name))).toEqual([]);
  });
});

describe('README.md', () => {
  it('lists the core options in its Options section', () => {
    const names = tableRows(section(read('README.md'), '## Options')).flatMap(([cell]) =>
      [...cell.matchAll(/`(\w+)`/g)].map((match) => match[1]),
    );
    expect(names.sort()).toEqual(CORE);
  });
});

describe('docs/errors-and-limits.md', () => {
  const doc = read('docs/errors-and-limits.md');

  it('states every limit, and the default of each option its Limits table names', () => {
    const limits = documentedDefaults(section(doc, '## Limits'), 2);
    const names = Object.keys(OPTIONS).filter(isLimit);
    expect(limits).toStrictEqual(pick([...new Set([...names, ...Object.keys(limits)])]));
  });

  it('lists every error code of ERROR_CODES with its status, and no other', () => {
    const rows = tableRows(section(doc, '## Error codes')).map((cells) => [plain(cells[0]), plain(cells[1])]);
    // `http-error` answers with the status of the HttpException it renders.
    const catalogue = Object.entries(ERROR_CODES).map(([code, { status }]) => [
      code,
      code === 'http-error' ? 'any' : String(status),
    ]);
    expect(Object.fromEntries(rows)).toStrictEqual(Object.fromEntries(catalogue));
    expect(rows).toHaveLength(catalogue.length);
  });
});

describe('the doc comments of the options (lib/options/crud-api-options.interface.ts)', () => {
  const FILE = 'lib/options/crud-api-options.interface.ts';
  // The option each interface of the file describes the members of.
  const PREFIXES: Record<string, string> = {
    CrudApiOptions: '',
    CrudApiLimits: 'limits.',
    CrudApiTransactions: 'transactions.',
    CrudApiShutdown: 'shutdown.',
    CrudApiCaching: 'caching.',
    CrudApiIdempotency: 'idempotency.',
  };

  /** The `@defaultValue` of each member of the file's interfaces, by dotted option name, parentheses left out. */
  function defaultValueTags(): Record<string, string> {
    const source = ts.createSourceFile(FILE, read(FILE), ts.ScriptTarget.Latest, true);
    return Object.fromEntries(
      source.statements.filter(ts.isInterfaceDeclaration).flatMap((declaration) =>
        declaration.members.flatMap((member) => {
          const tag = ts.getJSDocTags(member).find(({ tagName }) => tagName.text === 'defaultValue');
          const text = tag && plain(ts.getTextOfJSDocComment(tag.comment) ?? '').replace(/\s*\(.*\)$/, '');
          return text ? [[`${PREFIXES[declaration.name.text]}${member.name!.getText(source)}`, text]] : [];
        }),
      ),
    );
  }

  it('state the default of every option with one, as the docs do', () => {
    const tags = defaultValueTags();
    const inFile = (name: string) => Object.values(PREFIXES).includes(name.replace(/[^.]*$/, ''));
    const defaulted = SPECS.flatMap(([name, spec]) => ('default' in spec && inFile(name) ? [name] : []));
    expect(tags).toStrictEqual(pick([...new Set([...defaulted, ...Object.keys(tags)])]));
  });
});
