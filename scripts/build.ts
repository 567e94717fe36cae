// `npm run build`: the module into dist/; `npm run build:client`: the client package into client/dist/.
// `npm run pack:client`: the client package's tarball, to publish (docs/contributing.md).
import { buildPackage, type PackageName, PACKAGES, packPackage } from './build-package.js';

const [command, name = 'server', destination = '.'] = process.argv.slice(2);
if (!(name in PACKAGES)) throw new Error(`build: unknown package "${name}" (server or client)`);
if (command === 'pack') console.log(await packPackage(name as PackageName, destination));
else await buildPackage(name as PackageName);
