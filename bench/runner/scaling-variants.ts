import type { DataModelMeta } from '../../lib/metadata/model-meta.types.js';
import { cursorCodec } from '../../lib/rest/pagination/cursor-codec.js';
import { keysetKeys } from '../../lib/rest/pagination/sort-keys.js';
import type { Scenario } from '../scenarios.js';

/**
 * The list scenario under each count strategy and with cursor pagination, measured on our server
 * alone at every scaling size (the hand-written baseline has no such modes): the `exact` row of
 * the scaling table is the A/B comparison itself.
 */
export const SCALING_VARIANTS = ['none', 'estimated', 'cursor'] as const;
export type ScalingVariant = (typeof SCALING_VARIANTS)[number];

/**
 * The request of one variant over `posts` rows. `cursor` reads the page after the middle post (a
 * deep page: what OFFSET would make cost half the table), with the cursor our own codec writes.
 */
export function scalingVariantScenario(
  list: Scenario,
  variant: ScalingVariant,
  modelMeta: DataModelMeta,
  posts: number,
): Scenario {
  if (variant !== 'cursor')
    return { ...list, id: `${list.id}-count-${variant}`, headers: { Prefer: `count=${variant}` } };
  const post = modelMeta.models.Post!;
  // One page, deep in the table: its requests do not vary.
  const { vary: _, ...read } = list;
  const cursor = cursorCodec(post, keysetKeys(post, [{ id: 'asc' }]), modelMeta.enums).encode({
    id: Math.max(1, Math.floor(posts / 2)),
  });
  return { ...read, id: `${list.id}-cursor`, path: `/api/rest/post?page%5Bsize%5D=20&page%5Bafter%5D=${cursor}` };
}
