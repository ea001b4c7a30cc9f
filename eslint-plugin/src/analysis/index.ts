export * from './ast';
export * from './asyncContext';
export * from './blockingApis';
export * from './blockingChains';
export * from './callGraph';
export * from './catalog';
export * from './collections';
export * from './construction';
export * from './fanOutRewrites';
export * from './imports';
export * from './locks';
export * from './permitRewrites';
export * from './permits';
export * from './promises';
export * from './releasePaths';
export * from './sleeps';
// The package.json reader lives in the project layer; rules keep asking analysis for it.
export { declaresDependency, nearestDependencies, type PackageDependencies } from '../project';
