import { referentialActions } from '../history/history-writer.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import { listedSlices } from '../prisma/bound-values.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { readableRow } from '../rules/field-modes.js';
import type { ChangeEvent } from '../rules/rules.types.js';
import type { PolicySet } from './policy-set.js';
import { anyOfIds, idWhere } from './rule-where.js';

type Row = Record<string, any>;

/** Rows a node of a write stands for: known before the write, or filled in once it ran. */
export interface RowHolder {
  rows?: Row[];
  /**
   * The rows are whole, as the write left them (the write's own answer when it was the last to
   * touch them): the capture takes them as they are instead of reading them again.
   */
  whole?: boolean;
}

/** The rows linked through one relation of some parent rows, watched across a nested write. */
interface Watch {
  kind: 'watch';
  target: ModelMeta;
  /** The relation field of the target that points back at the parents. */
  back: string;
  backIsList: boolean;
  parent: ModelMeta;
  parents: RowHolder;
  /** Keys of the rows linked before the write (parents that existed) and of rows linked by name. */
  known: Set<string>;
  /** The rows the nested creates made, for the writes nested in them. */
  created: RowHolder;
}

interface Changed {
  kind: 'changed';
  model: ModelMeta;
  operation: 'create' | 'update' | 'delete';
  rows: RowHolder;
  /** Rows before the change (updates and deletes), by key. */
  before?: Map<string, Row>;
  /** An update's rows after it, when the write answered them whole. */
  after?: RowHolder;
  /** Link changes report only rows whose columns changed. */
  onlyIfChanged?: boolean;
}

const keyOf = (model: ModelMeta, row: Row): string => model.idFields.map((field) => String(row[field])).join('\u0000');

const delegate = (tx: PrismaClientLike, model: ModelMeta) => tx[toTypeName(model.name)];

/** Column values compared across a change (Dates, Decimals and BigInts by their text). */
const fingerprint = (row: Row): string =>
  JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));

/**
 * The changes of one transaction, row by row, for the change listeners. Each write records what it
 * touches while its data is walked (rows it updates or deletes, as stored before; relations whose
 * nested writes create rows), `settle` reads the rows after the write in the same transaction
 * (those the write answered whole are taken as they are), and the events wait in `events` for the
 * commit. Rows the database changes by itself (referential actions such as `onDelete: Cascade`) are
 * reported by `deleting`.
 */
export class ChangeCapture {
  private readonly pending: (Watch | Changed)[] = [];
  /** Rows reported deleted by the database's actions, by model and key: several paths may reach one. */
  private readonly cascaded = new Set<string>();
  readonly events: ChangeEvent[] = [];

  /** `set`: the caller's policies, for its context and the rules' field modes. */
  constructor(private readonly set: PolicySet) {}

  /** Rows a write creates, known once it ran (`rows.rows` set by then). */
  created(model: ModelMeta, rows: RowHolder): void {
    this.pending.push({ kind: 'changed', model, operation: 'create', rows });
  }

  /**
   * Rows a write updates or deletes, as stored before it. Returns the holder of the rows after it,
   * which the write fills (`whole`) when its own answer holds them; otherwise they are read.
   */
  changing(model: ModelMeta, operation: 'update' | 'delete', before: Row[], onlyIfChanged = false): RowHolder {
    const after: RowHolder = {};
    if (before.length === 0) return after;
    const byKey = new Map(before.map((row) => [keyOf(model, row), row]));
    this.pending.push({
      kind: 'changed',
      model,
      operation,
      rows: { rows: before },
      before: byKey,
      after,
      onlyIfChanged,
    });
    return after;
  }

  /**
   * Reports the rows the database changes by itself when `rows` of `model` are deleted, where they
   * lead to a model whose history is recorded: `onDelete: Cascade` deletes them (and what cascades
   * from them), `SetNull` and `SetDefault` update them. Called just before the delete, while they
   * are as they were; `rows` carry the columns their referencing keys point at.
   */
  async deleting(tx: PrismaClientLike, model: ModelMeta, rows: Row[]): Promise<void> {
    const history = this.set.history;
    if (!history || rows.length === 0) return;
    for (const action of referentialActions(this.set.modelMeta.models, history.models, model.name)) {
      const { fields, references } = action.source.fields[action.field]!.relation!;
      const dependants: Row[] = [];
      for (const slice of listedSlices(rows)) {
        const where = {
          OR: slice.map((row) => Object.fromEntries(fields.map((key, i) => [key, row[references[i]!]]))),
        };
        dependants.push(...(await delegate(tx, action.source).findMany({ where })));
      }
      const recorded = history.models.has(action.source.name);
      if (action.cascades) {
        const fresh = dependants.filter((row) => {
          const key = `${action.source.name}\u0000${keyOf(action.source, row)}`;
          return !this.cascaded.has(key) && this.cascaded.add(key);
        });
        if (recorded) this.changing(action.source, 'delete', fresh);
        await this.deleting(tx, action.source, fresh);
      } else if (recorded) this.changing(action.source, 'update', dependants, true);
    }
  }

  /**
   * Watches the rows linked to `parents` through `field` (of `parent`), so the rows nested creates add
   * are found after the write. Returns the holder of those created rows.
   */
  async watch(
    tx: PrismaClientLike,
    parent: ModelMeta,
    parents: RowHolder,
    target: ModelMeta,
    back: { name: string; isList: boolean },
  ): Promise<{ created: RowHolder; named: Set<string> }> {
    const watch: Watch = {
      kind: 'watch',
      target,
      back: back.name,
      backIsList: back.isList,
      parent,
      parents,
      known: new Set(),
      created: {},
    };
    if (parents.rows) for (const row of await this.linked(tx, watch, parents.rows)) watch.known.add(keyOf(target, row));
    this.pending.push(watch);
    return { created: watch.created, named: watch.known };
  }

  /** Keys of rows, for `watch`'s set of rows that are not new. */
  static keys(model: ModelMeta, rows: Row[]): string[] {
    return rows.map((row) => keyOf(model, row));
  }

  private linked(tx: PrismaClientLike, watch: Watch, parents: Row[]): Promise<Row[]> {
    const parentWhere = anyOfIds(watch.parent, parents);
    return delegate(tx, watch.target).findMany({
      where: { [watch.back]: watch.backIsList ? { some: parentWhere } : { is: parentWhere } },
    });
  }

  /** Reads what the recorded writes left, in the order they were recorded (parents first). */
  async settle(tx: PrismaClientLike): Promise<void> {
    for (const entry of this.pending.splice(0)) {
      if (entry.kind === 'watch') {
        const after = entry.parents.rows?.length ? await this.linked(tx, entry, entry.parents.rows) : [];
        entry.created.rows = after.filter((row) => !entry.known.has(keyOf(entry.target, row)));
        for (const row of entry.created.rows) this.emit(entry.target, 'create', row);
        continue;
      }
      const rows = entry.rows.rows ?? [];
      if (rows.length === 0) continue;
      const { model } = entry;
      if (entry.operation === 'delete') {
        for (const row of rows) this.emit(model, 'delete', undefined, row);
        continue;
      }
      const known = entry.after ?? entry.rows;
      const after: Row[] = known.whole
        ? known.rows!
        : await delegate(tx, model).findMany({ where: anyOfIds(model, rows) });
      for (const row of after) {
        const before = entry.before?.get(keyOf(model, row));
        if (entry.onlyIfChanged && before && fingerprint(before) === fingerprint(row)) continue;
        this.emit(model, entry.operation, row, before);
      }
    }
  }

  /** Records the event, its rows without the columns no client may read (`readableRow`). */
  private emit(model: ModelMeta, operation: ChangeEvent['operation'], after?: Row, before?: Row): void {
    const row = (after ?? before)!;
    const modes = this.set.fieldModes(model.name);
    this.events.push({
      model: model.name,
      operation,
      id: idWhere(model, row),
      ...(after ? { after: readableRow(modes, after) } : {}),
      ...(before ? { before: readableRow(modes, before) } : {}),
      context: this.set.context,
    });
  }
}
