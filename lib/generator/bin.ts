#!/usr/bin/env node
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import generatorHelper from '@prisma/generator-helper';

import { buildModelMeta } from './build-model-meta.js';
import { renderModelMetaModule } from './render-model-meta.js';

generatorHelper.generatorHandler({
  onManifest: () => ({ prettyName: 'nestjs-crud-api model metadata', defaultOutput: './crud-api' }),
  onGenerate: async (options) => {
    const outputDir = options.generator.output?.value;
    if (!outputDir) throw new Error('nestjs-crud-api-generator: the generator block needs an `output`.');
    const provider = options.datasources[0]?.activeProvider ?? 'unknown';
    const meta = buildModelMeta(options.dmmf.datamodel, provider);
    await mkdir(outputDir, { recursive: true });
    await writeFile(path.join(outputDir, 'index.ts'), renderModelMetaModule(meta));
  },
});
