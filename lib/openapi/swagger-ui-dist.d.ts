// swagger-ui-dist ships no types. Its `absolute-path.js` answers the folder it is installed in
// (a dependency of this package: no CDN, works offline) without `import.meta`, which the CommonJS
// build cannot contain, and without loading the package's 1 MB bundle as its main file would.
declare module 'swagger-ui-dist/absolute-path.js' {
  function getAbsoluteFSPath(): string;
  export = getAbsoluteFSPath;
}
