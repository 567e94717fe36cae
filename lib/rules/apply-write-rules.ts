import type { ValidationIssue } from '../errors/crud-api.error.js';
import { unknownField } from '../errors/unknown-field.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { inChildSpan } from '../telemetry/child-span.js';
import { SPANS } from '../telemetry/telemetry.constants.js';
import { fieldModes } from './field-modes.js';
import { InvalidValue } from './invalid-value.js';
import { issuesAt, RuleError, validationFailed } from './rule.error.js';
import type { CrudApiRules, ModelRules, RuleContext } from './rules.types.js';
import { validateWithSchema } from './validate-schema.js';

type Data = Record<string, any>;
type Row = Record<string, any>;
type Path = (string | number)[];

/** One request's rules: the rules, who is asking, the write's transaction, the issues found so far. */
export interface RuleRun {
  rules: CrudApiRules;
  context: RuleContext;
  /** The raw transaction client handed to hooks. */
  tx: unknown;
  /** Validation issues of the whole write, reported together before anything is written. */
  issues: ValidationIssue[];
  /** Columns an update computes in the database (`{ increment: 1 }`), validated once written. */
  computed: ComputedCheck[];
  model(name: string): ModelMeta;
}

/** Columns whose new value only the database knows, and the rows to read them from. */
export interface ComputedCheck {
  model: ModelMeta;
  fields: string[];
  path: Path;
  rows: Row[];
}

/** One data object of a write: a row to create, or the change of the rows an update targets. */
export interface RuleNode {
  model: ModelMeta;
  kind: 'create' | 'update';
  /** Where the data sits in the operation's arguments (`['data']`, `['data', 'posts', 'create', 0]`). */
  path: Path;
  /** Columns a parent row sets: the foreign key of the relation a nested create came through. */
  implied?: ReadonlySet<string>;
  /** The rows an update targets, as stored (loaded only when a hook asks). */
  rows?: () => Promise<Row[]>;
}

export function modelRules(rules: CrudApiRules | undefined, model: string): ModelRules | undefined {
  return rules && Object.hasOwn(rules, model) ? rules[model] : undefined;
}

/** Nested operations that link existing rows to the parent, which changes the foreign key of those rows. */
const LINKING = new Set(['connect', 'connectOrCreate', 'set', 'disconnect']);

const refused = (message: string, path: Path) => new RuleError(message, path, 'server-set');

/**
 * Refuses what a client may not write: server-set columns, any change of the row a server-set
 * foreign key names (only a nested `update` of that row leaves the key alone), and linking rows
 * through a relation whose foreign key, on the related rows, the server sets. Internal columns are
 * answered as unknown fields.
 */
function refuseServerSet(run: RuleRun, node: RuleNode, data: Data): void {
  const modes = fieldModes(run.rules, node.model);
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const field = Object.hasOwn(node.model.fields, key) ? node.model.fields[key] : undefined;
    const isObject = value !== null && typeof value === 'object';
    if (modes.internal.has(key)) throw unknownField(node.model.name, key);
    if (modes.unwritable.has(key)) {
      const changes = !field?.relation || !isObject || Object.keys(value).some((op) => op !== 'update');
      if (changes) throw refused(`${node.model.name}.${key} is set by the server.`, [...node.path, key]);
    }
    const opposite = field?.relation?.oppositeField;
    if (!field?.relation || !opposite || !isObject) continue;
    const target = run.model(field.relation.model);
    const backKeys = target.fields[opposite]?.relation?.fields ?? [];
    if (!backKeys.some((fk) => fieldModes(run.rules, target).unwritable.has(fk))) continue;
    const linking = Object.keys(value).find((op) => LINKING.has(op));
    if (linking)
      throw refused(`${target.name}.${opposite} is set by the server: "${linking}" cannot change it.`, [
        ...node.path,
        key,
        linking,
      ]);
  }
}

/** Server-set columns a create does not get otherwise, from the caller's context. */
function fillDefaults(run: RuleRun, node: RuleNode, data: Data): void {
  for (const [name, value] of fieldModes(run.rules, node.model).defaults) {
    if (data[name] !== undefined || node.implied?.has(name)) continue;
    // A relation given in Prisma's checked form sets its foreign key itself.
    const relation = Object.values(node.model.fields).find((field) => field.relation?.fields.includes(name));
    if (relation && data[relation.name] !== undefined) continue;
    data[name] = value(run.context);
  }
}

/** An object literal's value (not a Date, Decimal, array or class instance). */
export const isPlainObject = (value: unknown): value is Data =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/**
 * The data as a validator sees it: relation writes left out, `{ set: value }` unwrapped, and the
 * columns an update computes (`{ increment: 1 }`) set aside to be validated once written.
 */
function validatedView(model: ModelMeta, data: Data): { view: Data; computed: string[] } {
  const view: Data = {};
  const computed: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const field = Object.hasOwn(model.fields, key) ? model.fields[key] : undefined;
    if (field?.relation) continue;
    const operation = field !== undefined && field.type !== 'Json' && isPlainObject(value);
    if (!operation) view[key] = value;
    else if (Object.keys(value).length === 1 && 'set' in value) view[key] = value.set;
    else computed.push(key);
  }
  return { view, computed };
}

/**
 * The data the hook returns (or changed in place); undefined when it refused with a `RuleError`,
 * whose issues join the write's: the walk goes on, so the validators' issues are reported too.
 */
async function runHook(rules: ModelRules, run: RuleRun, node: RuleNode, data: Data): Promise<Data | undefined> {
  const base = { model: node.model.name, context: run.context, tx: run.tx, data };
  try {
    if (node.kind === 'create' && rules.beforeCreate) return (await rules.beforeCreate(base)) ?? data;
    if (node.kind === 'update' && rules.beforeUpdate)
      return (await rules.beforeUpdate({ ...base, rows: (await node.rows?.()) ?? [] })) ?? data;
    return data;
  } catch (error) {
    const issues = issuesAt(error, node.path);
    if (!issues) throw error;
    run.issues.push(...issues);
    return undefined;
  }
}

/**
 * The data less the values the interface found invalid (`InvalidValue`), whose issues join the
 * write's: they are reported with the validators' and the hooks', and never written.
 */
function withoutInvalidValues(run: RuleRun, node: RuleNode, input: Data): Data {
  let valid = input;
  for (const [key, value] of Object.entries(input)) {
    if (!(value instanceof InvalidValue)) continue;
    if (valid === input) valid = { ...input };
    delete valid[key];
    run.issues.push(value.issue([...node.path, key]));
  }
  return valid;
}

/** The virtual fields a validator sees: as the hook left them, or as the client sent them when the hook took them out. */
function virtualValues(rules: ModelRules, input: Data, data: Data): Data {
  const values: Data = {};
  for (const name of Object.keys(rules.virtual ?? {})) {
    if (Object.hasOwn(data, name)) values[name] = data[name];
    else if (Object.hasOwn(input, name)) values[name] = input[name];
  }
  return values;
}

/**
 * The rules of one data object, in their documented order: client input refused where the server
 * decides, invalid values set aside, server-set defaults filled, the hook run, virtual fields
 * dropped, then the data validated (issues collected in `run.issues`, thrown once the whole write
 * was walked). Returns the data to write, which the access policies then judge.
 */
export async function applyWriteRules(run: RuleRun, node: RuleNode, input: Data): Promise<Data> {
  const rules = modelRules(run.rules, node.model.name);
  refuseServerSet(run, node, input);
  const valid = withoutInvalidValues(run, node, input);
  if (!rules) return valid;
  return inChildSpan(
    SPANS.rules,
    () => runWriteRules(rules, run, node, valid, valid === input),
    node.model.name,
    node.kind,
  );
}

/**
 * `complete`: the client's data holds no invalid value. A hook's types promise it values of the
 * right type, so it runs on complete data only. When it did not run or refused, the validator
 * judges what the client sent, not the columns the hook would have filled.
 */
async function runWriteRules(
  rules: ModelRules,
  run: RuleRun,
  node: RuleNode,
  input: Data,
  complete: boolean,
): Promise<Data> {
  let data: Data = { ...input };
  if (node.kind === 'create') fillDefaults(run, node, data);
  const hooked = complete ? await runHook(rules, run, node, data) : undefined;
  data = hooked ?? data;
  const virtual = virtualValues(rules, input, data);
  for (const name of Object.keys(rules.virtual ?? {})) delete data[name];
  const schema = rules.validate?.[node.kind];
  if (schema) {
    const { view, computed } = validatedView(node.model, { ...data, ...virtual });
    const issues = await validateWithSchema(schema, view, node.kind);
    const judged = hooked ? issues : issues.filter((issue) => Object.hasOwn(input, issue.path[0] ?? ''));
    run.issues.push(...judged.map((issue) => ({ ...issue, path: [...node.path, ...issue.path] })));
    // The rows are named now: the update may move them out of what selected them.
    if (computed.length > 0 && node.rows)
      run.computed.push({ model: node.model, fields: computed, path: node.path, rows: await node.rows() });
  }
  return data;
}

/**
 * Validates the columns an update computed, as written (`read` gives them by primary key), with the
 * model's update schema; every issue is thrown at once, which rolls the write back.
 */
export async function validateComputed(run: RuleRun, read: (check: ComputedCheck) => Promise<Row[]>): Promise<void> {
  for (const check of run.computed.splice(0)) {
    const schema = modelRules(run.rules, check.model.name)?.validate?.update;
    if (!schema || check.rows.length === 0) continue;
    for (const row of await read(check)) {
      const values = Object.fromEntries(check.fields.map((field) => [field, row[field]]));
      const issues = await validateWithSchema(schema, values, 'update');
      run.issues.push(...issues.map((issue) => ({ ...issue, path: [...check.path, ...issue.path] })));
    }
  }
  throwIssues(run);
}

/** Runs a model's delete hook on the rows a delete targets. */
export async function applyDeleteRules(
  run: RuleRun,
  model: ModelMeta,
  path: Path,
  rows: () => Promise<Row[]>,
): Promise<void> {
  const hook = modelRules(run.rules, model.name)?.beforeDelete;
  if (!hook) return;
  await inChildSpan(
    SPANS.rules,
    async () => {
      try {
        await hook({ model: model.name, context: run.context, tx: run.tx, rows: await rows() });
      } catch (error) {
        const issues = issuesAt(error, path);
        throw issues ? validationFailed(issues) : error;
      }
    },
    model.name,
    'delete',
  );
}

/** Throws every validation issue of a write at once. */
export function throwIssues(run: RuleRun): void {
  if (run.issues.length > 0) throw validationFailed(run.issues.splice(0));
}
