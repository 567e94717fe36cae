import { deriveSchema } from '../../fixtures/blog/database/sample-schemas.js';

const SQLITE = `generator client {
  provider     = "prisma-client"
  output       = "../../generated/sqlite/prisma"
}

datasource db {
  provider = "sqlite"
}

model Post {
  id      Int     @id
  content String? // mysql: @db.Text
  // postgresql: keywords String[]
  // mysql: @@fulltext([content])
}`;

describe('deriveSchema', () => {
  it('switches the provider and output, enables its own markers (whole lines and trailing attributes) and leaves the others as comments', () => {
    const mysql = deriveSchema(SQLITE, 'mysql');
    expect(mysql).toContain('provider = "mysql"');
    expect(mysql).toContain('output       = "./prisma"');
    expect(mysql).toContain('content String? @db.Text');
    expect(mysql).toContain('  @@fulltext([content])');
    expect(mysql).toContain('// postgresql: keywords String[]');
    expect(mysql).not.toContain('previewFeatures');
    const postgres = deriveSchema(SQLITE, 'postgresql');
    expect(postgres).toContain('  keywords String[]');
    expect(postgres).toContain('content String? // mysql: @db.Text');
    expect(postgres).toContain('previewFeatures = ["fullTextSearchPostgres"]');
  });
});
