import { type } from 'arktype';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateNested,
} from 'class-validator';
import * as v from 'valibot';
import { z } from 'zod';

import { describedSchema } from '../../test/support/described-schema.js';
import { isRuleSchema, jsonSchemaOf, validateWithSchema } from './validate-schema.js';

const LONG_INVALID = 'x'.repeat(300);

class UserDto {
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(130)
  age?: number;
}

class TagDto {
  @MinLength(2)
  name!: string;
}

class AddressDto {
  @IsString()
  city!: string;
}

class ProfileDto {
  @ValidateNested()
  address!: AddressDto;

  @ValidateNested({ each: true })
  tags!: TagDto[];
}

class DocumentedDto {
  @IsString({ each: true })
  labels!: string[];

  @IsBoolean()
  published!: boolean;

  @IsIn(['DRAFT', 'PUBLISHED'])
  status!: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  title?: string;
}

class CustomOnlyDto {
  @Validate(
    class {
      validate = (value: unknown) => value === 'ok';
    },
  )
  code!: string;
}

class Undecorated {
  email!: string;
}

describe('validateWithSchema with Standard Schemas', () => {
  it('reports every zod issue of the data with its path and zod code', async () => {
    const schema = z.object({ email: z.email().max(254) });
    expect(await validateWithSchema(schema, { email: LONG_INVALID }, 'create')).toEqual([
      { path: ['email'], message: 'Invalid email address', code: 'invalid_format' },
      { path: ['email'], message: 'Too big: expected string to have <=254 characters', code: 'too_big' },
    ]);
  });

  it('gives nested object and array paths, array indices as numbers', async () => {
    const schema = z.object({
      address: z.object({ city: z.string() }),
      tags: z.array(z.object({ name: z.string().min(2) })),
    });
    const issues = await validateWithSchema(
      schema,
      { address: { city: 3 }, tags: [{ name: 'ok' }, { name: 'a' }] },
      'create',
    );
    expect(issues.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: ['address', 'city'], code: 'invalid_type' },
      { path: ['tags', 1, 'name'], code: 'too_small' },
    ]);
  });

  it('awaits async refinements', async () => {
    const schema = z
      .object({ name: z.string() })
      .refine(async (data) => data.name !== 'taken', { message: 'Taken', path: ['name'] });
    expect(await validateWithSchema(schema, { name: 'taken' }, 'create')).toEqual([
      { path: ['name'], message: 'Taken', code: 'custom' },
    ]);
    expect(await validateWithSchema(schema, { name: 'free' }, 'create')).toEqual([]);
  });

  it('checks an update against the schema given for updates, as is', async () => {
    const update = z.object({ email: z.email().max(254) }).partial();
    expect(await validateWithSchema(update, {}, 'update')).toEqual([]);
    expect(await validateWithSchema(update, { email: 'x' }, 'update')).toHaveLength(1);
  });

  it('reads valibot paths from their { key } segments and codes its issues invalid', async () => {
    const schema = v.object({
      email: v.pipe(v.string(), v.email(), v.maxLength(254)),
      tags: v.array(v.object({ name: v.pipe(v.string(), v.minLength(2)) })),
    });
    const issues = await validateWithSchema(schema, { email: LONG_INVALID, tags: [{ name: 'a' }] }, 'create');
    expect(issues.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: ['email'], code: 'invalid' },
      { path: ['email'], code: 'invalid' },
      { path: ['tags', 0, 'name'], code: 'invalid' },
    ]);
    expect(issues[2]!.message).toBe('Invalid length: Expected >=2 but received 1');
  });

  it('keeps arktype codes and paths', async () => {
    const schema = type({ email: 'string.email <= 254', tags: type({ name: 'string >= 2' }).array() });
    const issues = await validateWithSchema(schema, { email: 'x', tags: [{ name: 'ok' }, { name: 3 }] }, 'create');
    expect(issues.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: ['email'], code: 'pattern' },
      { path: ['tags', 1, 'name'], code: 'domain' },
    ]);
  });

  it('finds nothing in valid data, whatever the vendor', async () => {
    const data = { email: 'ada@example.com' };
    expect(await validateWithSchema(z.object({ email: z.email() }), data, 'create')).toEqual([]);
    expect(await validateWithSchema(v.object({ email: v.pipe(v.string(), v.email()) }), data, 'create')).toEqual([]);
    expect(await validateWithSchema(type({ email: 'string.email' }), data, 'create')).toEqual([]);
  });
});

describe('validateWithSchema with class-validator classes', () => {
  it('reports one issue per failed constraint, coded by the constraint', async () => {
    expect(await validateWithSchema(UserDto, { email: LONG_INVALID, age: -1 }, 'create')).toEqual([
      { path: ['email'], message: 'email must be shorter than or equal to 254 characters', code: 'maxLength' },
      { path: ['email'], message: 'email must be an email', code: 'isEmail' },
      { path: ['age'], message: 'age must not be less than 0', code: 'min' },
    ]);
  });

  it('requires the properties of a create and skips the missing ones of an update', async () => {
    const created = await validateWithSchema(UserDto, {}, 'create');
    expect(created.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: ['email'], code: 'maxLength' },
      { path: ['email'], code: 'isEmail' },
    ]);
    expect(await validateWithSchema(UserDto, {}, 'update')).toEqual([]);
    expect(await validateWithSchema(UserDto, { age: 200 }, 'update')).toEqual([
      { path: ['age'], message: 'age must not be greater than 130', code: 'max' },
    ]);
  });

  it('flattens nested errors into property paths, array indices as numbers', async () => {
    const profile = {
      address: Object.assign(new AddressDto(), { city: 3 }),
      tags: [Object.assign(new TagDto(), { name: 'ok' }), Object.assign(new TagDto(), { name: 'a' })],
    };
    expect(await validateWithSchema(ProfileDto, profile, 'create')).toEqual([
      { path: ['address', 'city'], message: 'city must be a string', code: 'isString' },
      { path: ['tags', 1, 'name'], message: 'name must be longer than or equal to 2 characters', code: 'minLength' },
    ]);
  });

  it('finds nothing in valid data', async () => {
    expect(await validateWithSchema(UserDto, { email: 'ada@example.com', age: 36 }, 'create')).toEqual([]);
  });

  it('does not let a __proto__ key take the instance away from its class', async () => {
    const data = JSON.parse('{ "__proto__": {}, "email": "x" }') as Record<string, unknown>;
    const issues = await validateWithSchema(UserDto, data, 'create');
    expect(issues.map(({ code }) => code)).toEqual(['isEmail']);
  });
});

describe('isRuleSchema', () => {
  it('accepts Standard Schemas of every vendor and decorated classes', () => {
    expect(isRuleSchema(z.object({}))).toBe(true);
    expect(isRuleSchema(v.object({}))).toBe(true);
    expect(isRuleSchema(type({ name: 'string' }))).toBe(true);
    expect(isRuleSchema(UserDto)).toBe(true);
  });

  it('refuses anything else, undecorated classes included', () => {
    for (const value of [Undecorated, () => undefined, {}, { '~standard': { version: 1 } }, null, 'UserDto', 3]) {
      expect(isRuleSchema(value)).toBe(false);
    }
  });

  it('is what validateWithSchema requires', async () => {
    await expect(validateWithSchema(Undecorated, {}, 'create')).rejects.toThrow(
      'rules: a validate schema must be a Standard Schema or a class with class-validator decorators',
    );
  });
});

describe('jsonSchemaOf', () => {
  it('takes the properties of zod schemas, required ones listed', () => {
    expect(jsonSchemaOf(z.object({ email: z.email().max(254), age: z.int().optional() }), 'create')).toEqual({
      properties: {
        email: { type: 'string', format: 'email', maxLength: 254, pattern: expect.any(String) },
        age: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['email'],
    });
  });

  it('describes what JSON Schema cannot express as {} and leaves out properties with references', () => {
    const node = z.object({
      name: z.string(),
      at: z.date(),
      get children() {
        return z.array(node);
      },
    });
    expect(jsonSchemaOf(node.partial(), 'update')).toEqual({ properties: { name: { type: 'string' }, at: {} } });
  });

  it('describes only object schemas', () => {
    expect(jsonSchemaOf(z.string(), 'create')).toBeUndefined();
  });

  it('takes the properties of arktype types', () => {
    expect(jsonSchemaOf(type({ name: 'string >= 2', 'age?': 'number.integer' }), 'create')).toEqual({
      properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer' } },
      required: ['name'],
    });
  });

  it('has nothing for valibot schemas, which do not implement Standard JSON Schema themselves', () => {
    expect(jsonSchemaOf(v.object({ name: v.string() }), 'create')).toBeUndefined();
  });

  it('uses any Standard JSON Schema converter', () => {
    const schema = describedSchema(() => ({ type: 'object', properties: { name: { type: 'string' } } }));
    expect(jsonSchemaOf(schema, 'create')).toEqual({ properties: { name: { type: 'string' } } });
  });

  it('has nothing when the converter throws', () => {
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'custom',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => {
            throw new Error('draft-2020-12 is not supported');
          },
          output: () => ({}),
        },
      },
    };
    expect(jsonSchemaOf(schema, 'create')).toBeUndefined();
  });

  it('describes the common class-validator constraints, required unless optional on a create', () => {
    expect(jsonSchemaOf(UserDto, 'create')).toEqual({
      properties: {
        email: { type: 'string', format: 'email', maxLength: 254 },
        age: { type: 'integer', minimum: 0, maximum: 130 },
      },
      required: ['email'],
    });
    expect(jsonSchemaOf(DocumentedDto, 'create')).toEqual({
      properties: {
        labels: { type: 'array', items: { type: 'string' } },
        published: { type: 'boolean' },
        status: { enum: ['DRAFT', 'PUBLISHED'] },
        title: { type: 'string', minLength: 1, maxLength: 80 },
      },
      required: ['labels', 'published', 'status'],
    });
  });

  it('requires nothing of an update', () => {
    expect(jsonSchemaOf(UserDto, 'update')).toEqual({
      properties: {
        email: { type: 'string', format: 'email', maxLength: 254 },
        age: { type: 'integer', minimum: 0, maximum: 130 },
      },
    });
  });

  it('has nothing for a class whose constraints it does not know', () => {
    expect(jsonSchemaOf(CustomOnlyDto, 'create')).toBeUndefined();
  });
});
