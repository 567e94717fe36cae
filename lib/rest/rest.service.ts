import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import { CrudApiError } from '../filters/crud-api.error.js';
import type { ApiResponse } from '../http/api-response.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { PrismaClientResolver } from '../prisma/prisma-client.resolver.js';

export type RelationshipChange = 'add' | 'replace' | 'remove';

/** The JSON:API resource operations. Replace it with a provider of your own to customize them. */
@Injectable()
export class RestService {
  constructor(
    @Inject(CRUD_API_OPTIONS) protected readonly options: ResolvedCrudApiOptions,
    protected readonly registry: ModelRegistry,
    protected readonly clients: PrismaClientResolver,
  ) {}

  async list(req: Request, type: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', `list ${type} is not implemented yet`);
  }

  async fetch(req: Request, type: string, id: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', `fetch ${type}/${id} is not implemented yet`);
  }

  async fetchRelated(req: Request, type: string, id: string, relationship: string, relatedId?: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', 'not implemented yet');
  }

  async fetchRelationship(req: Request, type: string, id: string, relationship: string, relatedId?: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', 'not implemented yet');
  }

  async create(req: Request, type: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', 'not implemented yet');
  }

  async update(req: Request, type: string, id: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', 'not implemented yet');
  }

  async delete(req: Request, type: string, id: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', 'not implemented yet');
  }

  async changeRelationship(req: Request, change: RelationshipChange, type: string, id: string, relationship: string): Promise<ApiResponse> {
    throw new CrudApiError('internal-error', 'not implemented yet');
  }
}
