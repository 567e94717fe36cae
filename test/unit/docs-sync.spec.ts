import { readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';

import { LIVE_DEFAULTS } from '../../lib/changes/live.types.js';
import { ERROR_CODES } from '../../lib/errors/error-codes.js';
import { DEFAULT_OPENAPI_OPTIONS } from '../../lib/openapi/openapi.types.js';
import { DEFAULT_REST_PATH, DEFAULT_RPC_PATH } from '../../lib/options/crud-api.constants.js';
import { defaultsOf, type OptionSpec, type SomeOptionTable } from '../../lib/options/option-spec.js';
import { DEFAULT_LIMITS, DEFAULT_TRANSACTIONS, OPTION_TABLE } from '../../lib/options/option-table.js';

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

describe('statements of the docs worked out from the defaults', () => {
  const { maxFilters, maxFilterDepth, maxIncludePaths, maxIncludeDepth } = DEFAULT_LIMITS;
  const { timeout, maxWait } = DEFAULT_TRANSACTIONS;
  const hops = maxFilterDepth - 1;
  // As a reader sees them: code without backticks, lines joined.
  const STATEMENTS: [file: string, text: string][] = [
    [
      'docs/rest.md',
      `at most ${maxFilters} filters of at most ${hops} relationship hops each (${maxFilters * hops} subqueries)`,
    ],
    [
      'docs/rest.md',
      `at most ${maxIncludePaths} include paths of depth ${maxIncludeDepth} (one SQL statement per included ` +
        `relationship, so at most ${maxIncludePaths * maxIncludeDepth} besides`,
    ],
    ['docs/rest.md', `a page of at most pageSize (${OPTIONS.pageSize}) primary resources`],
    ['docs/rest.md', `a body of at most bodyLimit (${OPTIONS.bodyLimit})`],
    [
      'docs/operations.md',
      `(transactions.timeout plus transactions.maxWait, ${(timeout + maxWait) / 1000} s by default)`,
    ],
    ['docs/typed-client.md', `live.heartbeat (${LIVE_DEFAULTS.heartbeat / 1000} s by default)`],
  ];

  it.each(STATEMENTS)('%s: %s', (file, text) => {
    expect(read(file).replaceAll('`', '').replace(/\s+/g, ' ')).toContain(text);
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

/**
 * The `@defaultValue` of each member of the interfaces a file declares, by dotted option name
 * (parentheses left out): `prefixes` names the option each interface describes the members of.
 */
function defaultValueTags(file: string, prefixes: Record<string, string>): Record<string, string> {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  return Object.fromEntries(
    source.statements.filter(ts.isInterfaceDeclaration).flatMap((declaration) =>
      declaration.name.text in prefixes
        ? declaration.members.flatMap((member) => {
            const tag = ts.getJSDocTags(member).find(({ tagName }) => tagName.text === 'defaultValue');
            const text = tag && plain(ts.getTextOfJSDocComment(tag.comment) ?? '').replace(/\s*\(.*\)$/, '');
            return text ? [[`${prefixes[declaration.name.text]}${member.name!.getText(source)}`, text]] : [];
          })
        : [],
    ),
  );
}

describe('the doc comments of the options', () => {
  // The option each interface describes the members of, by the file that declares it.
  const FILES: Record<string, Record<string, string>> = {
    'lib/options/crud-api-options.interface.ts': {
      CrudApiOptions: '',
      CrudApiLimits: 'limits.',
      CrudApiTransactions: 'transactions.',
      CrudApiShutdown: 'shutdown.',
      CrudApiCaching: 'caching.',
      CrudApiIdempotency: 'idempotency.',
    },
    'lib/changes/live.types.ts': { CrudApiLive: 'live.' },
    'lib/changes/outbox.types.ts': { CrudApiOutbox: 'outbox.', WebhookTarget: 'outbox.webhooks.' },
  };

  it('state the default of every option with one, as the docs do', () => {
    const tags = Object.assign(
      {},
      ...Object.entries(FILES).map(([file, prefixes]) => defaultValueTags(file, prefixes)),
    );
    const prefixes = Object.values(FILES).flatMap((byInterface) => Object.values(byInterface));
    const inFiles = (name: string) => prefixes.includes(name.replace(/[^.]*$/, ''));
    const defaulted = SPECS.flatMap(([name, spec]) => ('default' in spec && inFiles(name) ? [name] : []));
    expect(tags).toStrictEqual(pick([...new Set([...defaulted, ...Object.keys(tags)])]));
  });
});

describe('the extras (docs/options.md#extras)', () => {
  // Given to forRoot beside the options, they have no option table: the docs are held to the
  // defaults the module applies and to the doc comments of their interfaces.
  const extras = documentedDefaults(section(read('docs/options.md'), '## Extras'), 1);

  it('state the defaults the module applies', () => {
    const applied: Record<string, unknown> = {
      restPath: DEFAULT_REST_PATH,
      rpcPath: DEFAULT_RPC_PATH,
      ...Object.fromEntries(Object.entries(DEFAULT_OPENAPI_OPTIONS).map(([name, value]) => [`openapi.${name}`, value])),
    };
    const rendered = Object.fromEntries(Object.entries(applied).map(([name, value]) => [name, render(value)]));
    expect(Object.fromEntries(Object.keys(applied).map((name) => [name, extras[name]]))).toStrictEqual(rendered);
  });

  it('list every member of CrudApiModuleExtras and of `openapi`, with the default its doc comment states', () => {
    const tags = {
      ...defaultValueTags('lib/module/crud-api-module-options.interface.ts', { CrudApiModuleExtras: '' }),
      ...defaultValueTags('lib/openapi/openapi.types.ts', { CrudApiOpenApiOptions: 'openapi.' }),
    };
    expect(extras).toStrictEqual(tags);
  });
});
