import type { Type } from '@nestjs/common';

import {
  RestFetchBaseline,
  RestFilterSortBaseline,
  RestIncludeBaseline,
  RestListBaseline,
  RestListSoftDeletedBaseline,
  RestRelatedBaseline,
} from './rest-read.controllers.js';
import { RestCreateBaseline, RestUpdateBaseline } from './rest-write.controllers.js';
import {
  RpcAggregateBaseline,
  RpcCreateBaseline,
  RpcCreateRulesBaseline,
  RpcFindManyBaseline,
  RpcFindUniqueBaseline,
  RpcGroupByBaseline,
  RpcTransactionBaseline,
  RpcUpdateBaseline,
} from './rpc.controllers.js';

/** The fastest careful hand-written controller of each scenario (by `Scenario.id`). */
export const BASELINE_CONTROLLERS: Readonly<Record<string, Type>> = {
  'rest-fetch': RestFetchBaseline,
  'rest-fetch-hot': RestFetchBaseline,
  'rest-list': RestListBaseline,
  'rest-list-soft-deleted': RestListSoftDeletedBaseline,
  'rest-include': RestIncludeBaseline,
  'rest-filter-sort': RestFilterSortBaseline,
  'rest-related': RestRelatedBaseline,
  'rest-create': RestCreateBaseline,
  'rest-update': RestUpdateBaseline,
  'rpc-find-unique': RpcFindUniqueBaseline,
  'rpc-find-many': RpcFindManyBaseline,
  'rpc-aggregate': RpcAggregateBaseline,
  'rpc-group-by': RpcGroupByBaseline,
  'rpc-create': RpcCreateBaseline,
  'rpc-create-rules': RpcCreateRulesBaseline,
  'rpc-update': RpcUpdateBaseline,
  'rpc-transaction': RpcTransactionBaseline,
};
