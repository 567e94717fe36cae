import { explainedInSavepoint } from '../../data/savepoint.js';
import { CrudApiError } from '../../errors/crud-api.error.js';
import { isPrismaKnownRequestError } from '../../filters/error-description.js';
import { idSelect } from '../../metadata/id-select.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { toTypeName } from '../../metadata/model-registry.js';
import { type IdValues, uniqueWhere } from '../resource-id.js';
import { resourceIssuePointer, withIssuePointers } from '../write/issue-pointers.js';
import type { RelatedReference } from '../write/relationship-data.js';
import { assertReferencesExist, findResource } from './find-resource.js';
import { modelDelegate } from './model-delegate.js';
import type { ResourceContext } from './resource-context.js';
import type { ResourceTarget } from './resource-target.js';

/** What a write is about, to explain its failure. */
export interface WriteSubject {
  model: ModelMeta;
  /** The resource an update or delete writes. */
  target?: ResourceTarget;
  /** The client-generated id of a create. */
  clientId?: IdValues;
  references: readonly RelatedReference[];
}

/** Prisma codes of a write that needed a row that is not there: a related one, or the target. */
const MISSING_RECORD_ERRORS: ReadonlySet<string> = new Set(['P2003', 'P2018', 'P2025']);

/**
 * Runs a create, update or delete as the one Prisma call it is (Prisma makes nested writes atomic)
 * and, when the context explains failures, looks for the client-facing reason only when it fails:
 * a taken client id (409), a missing related resource (404 at its pointer), a missing target (404).
 * Checking first would need an interactive transaction around every write, which serializes
 * writers on SQLite. In a transaction (an atomic operation, a conditional or idempotent write) the
 * write runs in a savepoint, so that the same queries explain it: every path answers alike. A rule
 * refusal gets the JSON:API pointer of each issue; any other failure is thrown as it is.
 */
export async function runWrite<T>(context: ResourceContext, subject: WriteSubject, run: () => Promise<T>): Promise<T> {
  const explain = async (error: unknown) => {
    if (context.explainFailures && isPrismaKnownRequestError(error)) await explainFailure(context, subject, error.code);
  };
  try {
    if (context.inTransaction) return await explainedInSavepoint(context.client, run, explain);
    try {
      return await run();
    } catch (error) {
      await explain(error);
      throw error;
    }
  } catch (error) {
    throw withIssuePointers(error, (path) => resourceIssuePointer(subject.model, path));
  }
}

/** Throws the client-facing reason of a failed write, if it finds one. */
async function explainFailure(context: ResourceContext, subject: WriteSubject, code: string): Promise<void> {
  const { client, scope } = context;
  const { registry } = scope.fields;
  const { model, clientId, target, references } = subject;
  if (
    code === 'P2002' &&
    clientId &&
    (await modelDelegate(registry, client, model).findUnique!({
      where: uniqueWhere(model, clientId),
      select: idSelect(model),
    }))
  ) {
    throw new CrudApiError('conflict', `A ${toTypeName(model.name)} with this id already exists.`, {
      source: { pointer: '/data/id' },
    });
  }
  if (MISSING_RECORD_ERRORS.has(code)) {
    await assertReferencesExist(registry, scope.idDivider, client, references);
    if (target) await findResource(registry, client, target, { select: idSelect(target.model) });
  }
}
