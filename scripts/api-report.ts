// `npm run api:check`: fails when the public surface of the built declarations (dist/) differs from the
// reports checked in under etc/; `npm run api:update` accepts the difference (docs/contributing.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Extractor, ExtractorConfig, ExtractorLogLevel, type IConfigFile } from '@microsoft/api-extractor';

import { ROOT_DIR } from './build-package.js';

interface PackageJson {
  name: string;
  exports: Record<string, string | { import?: { types?: string } }>;
}

/**
 * The report name and built declarations of each entry point in package.json's `exports`:
 * `nestjs-crud-api` for `.`, `nestjs-crud-api-client-react` for `./client/react`.
 */
function entryPoints({ name, exports }: PackageJson): [string, string][] {
  return Object.entries(exports).flatMap(([subpath, target]) => {
    const types = typeof target === 'object' ? target.import?.types : undefined;
    return types ? [[name + subpath.slice(1).replaceAll('/', '-'), types]] : [];
  });
}

function configOf(reportName: string, entryPoint: string): IConfigFile {
  return {
    projectFolder: ROOT_DIR,
    mainEntryPointFilePath: path.join(ROOT_DIR, entryPoint),
    compiler: {
      // The declarations alone: compiling lib/ or the tests again would only slow the check down.
      overrideTsconfig: {
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023'],
          types: ['node'],
          strict: true,
          skipLibCheck: true,
        },
        files: [path.join(ROOT_DIR, entryPoint)],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: reportName,
      reportFolder: path.join(ROOT_DIR, 'etc'),
      reportTempFolder: path.join(ROOT_DIR, 'node_modules/.cache/api-report'),
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      // The package has no release stages, and its comments are prose, not TSDoc to render.
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning },
        'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
        'ae-undocumented': { logLevel: ExtractorLogLevel.None },
        // A public type's part that the entry point does not export (users cannot name it): listed in
        // the report, so that a new one shows in review.
        'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
      },
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  };
}

/** Checks (or, with `update`, rewrites) every report; answers whether all of them matched and had no error. */
function checkApiReports(update: boolean): boolean {
  const packageJsonFullPath = path.join(ROOT_DIR, 'package.json');
  const packageJson = JSON.parse(readFileSync(packageJsonFullPath, 'utf8')) as PackageJson;
  return entryPoints(packageJson)
    .map(([reportName, entryPoint]) => {
      const config = ExtractorConfig.prepare({
        configObject: configOf(reportName, entryPoint),
        configObjectFullPath: undefined,
        packageJsonFullPath,
      });
      const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
      return result.succeeded;
    })
    .every(Boolean);
}

const update = process.argv[2] === 'update';
if (!checkApiReports(update)) {
  console.error(
    update
      ? 'api-report: fix the errors above'
      : 'api-report: the public surface changed; review it and run `npm run api:update` to accept it',
  );
  process.exitCode = 1;
}
