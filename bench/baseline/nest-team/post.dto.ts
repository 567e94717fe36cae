import {
  Equals,
  IsBooleanString,
  IsIn,
  IsInt,
  IsJSON,
  IsNumber,
  IsNumberString,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';

import { Nested } from './class-transformer-lite.js';

// The DTO classes a Nest team declares for the scenarios' requests: every field the request may
// carry, typed and checked by class-validator under the global ValidationPipe.

/** The query of a REST list: page, filters, sort and include, with their bracketed names. */
export class PostListQuery {
  @IsOptional() @IsNumberString() 'page[limit]'?: string;
  @IsOptional() @IsNumberString() 'page[offset]'?: string;
  @IsOptional() @IsIn(['author,comments']) include?: string;
  @IsOptional() @IsBooleanString() 'filter[published]'?: string;
  @IsOptional() @IsNumberString() 'filter[authorId$lte]'?: string;
  @IsOptional() @IsString() sort?: string;
}

/** The query of an RPC read: its arguments as JSON in `q`. */
export class RpcReadQuery {
  @IsJSON() q!: string;
}

class AuthorIdentifier {
  @Equals('user') type!: string;
  @IsInt() id!: number;
}

class AuthorLinkage {
  @ValidateNested() @Nested(() => AuthorIdentifier) data!: AuthorIdentifier;
}

class PostRelationships {
  @ValidateNested() @Nested(() => AuthorLinkage) author!: AuthorLinkage;
}

class PostAttributes {
  @IsOptional() @IsString() title?: string;
  @IsOptional() @IsString() content?: string;
  @IsOptional() @IsNumber() rating?: number;
}

class CreatePostResource {
  @Equals('post') type!: string;
  @ValidateNested() @Nested(() => PostAttributes) attributes!: PostAttributes & { title: string };
  @ValidateNested() @Nested(() => PostRelationships) relationships!: PostRelationships;
}

/** A JSON:API document creating a post. */
export class CreatePostDocument {
  @ValidateNested() @Nested(() => CreatePostResource) data!: CreatePostResource;
}

class UpdatePostResource {
  @Equals('post') type!: string;
  @IsInt() id!: number;
  @ValidateNested() @Nested(() => PostAttributes) attributes!: PostAttributes;
}

/** A JSON:API document updating a post. */
export class UpdatePostDocument {
  @ValidateNested() @Nested(() => UpdatePostResource) data!: UpdatePostResource;
}

class RpcPostData {
  @IsString() title!: string;
  @IsOptional() @IsString() content?: string;
  @IsNumber() rating!: number;
  @IsInt() authorId!: number;
}

/** The arguments of RPC `post.create`. */
export class RpcCreatePost {
  @ValidateNested() @Nested(() => RpcPostData) data!: RpcPostData & { content: string };
}

class PostWhereUnique {
  @IsInt() id!: number;
}

class RpcPostChanges {
  @IsOptional() @IsString() title!: string;
  @IsOptional() @IsNumber() rating!: number;
}

/** The arguments of RPC `post.update`. */
export class RpcUpdatePost {
  @ValidateNested() @Nested(() => PostWhereUnique) where!: PostWhereUnique;
  @ValidateNested() @Nested(() => RpcPostChanges) data!: RpcPostChanges;
}

/** One step of RPC `$transaction/sequential`. */
export class TransactionStepDto {
  @IsIn(['Post', 'Comment']) model!: string;
  @IsIn(['create', 'update']) op!: string;
  @IsObject() args!: { data: Record<string, any>; where?: { id: number } };
}
