// The package.json reader lives in the project layer, the only one there is; analysis code and
// rules keep asking for it here.
export { declaresDependency, nearestDependencies, type PackageDependencies } from '../project';
