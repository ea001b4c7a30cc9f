import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { declaresDependency } from '../project';
import { findObjectProperty, skipTransparent, staticPropertyName } from './ast';

/**
 * Query-string parameters and request options that set how many items a listing endpoint answers
 * with (`/movies/trending?limit=6`, `{ params: { per_page: 50 } }`).
 */
const PAGE_PARAMETERS: readonly string[] = ['limit', 'per_page', 'perPage', 'pageSize', 'page_size', 'take', 'top', 'first', 'max_results', 'maxResults'];
const PAGE_PARAMETER = new RegExp(`[?&](?:${PAGE_PARAMETERS.join('|')})=`);
/** Request options that hold the query string of an HTTP client's request (axios `params`, got/ky `searchParams`). */
const QUERY_OPTIONS: readonly string[] = ['params', 'searchParams', 'query', 'qs'];

/**
 * The page size a request asks for in its URL or its query options: `'fixed'` for a literal one
 * (`?limit=6`), the expression that sets it (`?limit=${limit}`, `params: { limit: n }`), or null
 * when the request asks for no page size. A listing endpoint answers with at most that many items;
 * whether an expression is itself bounded is the caller's question (a limit the client sent is not).
 */
export function requestPageSize(call: TSESTree.CallExpression): 'fixed' | TSESTree.Node | null {
  const url = call.arguments[0] ? skipTransparent(call.arguments[0]) : null;
  const inUrl = url ? urlPageSize(url) : null;
  if (inUrl) return inUrl;
  for (const arg of call.arguments.slice(1)) {
    const options = skipTransparent(arg);
    if (options.type !== AST_NODE_TYPES.ObjectExpression) continue;
    for (const name of QUERY_OPTIONS) {
      const query = findObjectProperty(options, name)?.value;
      const object = query ? skipTransparent(query) : null;
      if (object?.type !== AST_NODE_TYPES.ObjectExpression) continue;
      for (const parameter of PAGE_PARAMETERS) {
        const value = findObjectProperty(object, parameter)?.value;
        if (value) return value.type === AST_NODE_TYPES.Literal ? 'fixed' : value;
      }
    }
  }
  return null;
}

function urlPageSize(url: TSESTree.Node): 'fixed' | TSESTree.Node | null {
  if (url.type === AST_NODE_TYPES.Literal && typeof url.value === 'string') {
    return fixedParameter(url.value) ? 'fixed' : null;
  }
  if (url.type !== AST_NODE_TYPES.TemplateLiteral) return null;
  for (const [i, quasi] of url.quasis.entries()) {
    const text = quasi.value.cooked ?? quasi.value.raw;
    if (fixedParameter(text)) return 'fixed';
    // `?limit=${limit}`: the parameter's value is the expression right after it.
    const match = /[?&]([A-Za-z_]+)=$/.exec(text);
    const value = url.expressions[i];
    if (match && value && PAGE_PARAMETERS.includes(match[1] as string)) return value;
  }
  return null;
}

function fixedParameter(text: string): boolean {
  const at = PAGE_PARAMETER.exec(text);
  return at !== null && /^\d+(?:&|#|$)/.test(text.slice(at.index + at[0].length));
}

/** Packages that give a program GitHub's REST client, whose endpoint methods hang off `octokit.<namespace>` (or `octokit.rest.<namespace>`). */
const OCTOKIT_PACKAGES: readonly string[] = ['@octokit/rest', 'octokit', '@octokit/plugin-rest-endpoint-methods', '@actions/github', 'probot'];
/** Octokit's endpoint namespaces whose `list…` methods answer with one page of a listing. */
const OCTOKIT_NAMESPACES: ReadonlySet<string> = new Set([
  'actions', 'activity', 'apps', 'checks', 'codeScanning', 'codespaces', 'dependabot', 'gists', 'git', 'issues', 'migrations', 'orgs',
  'packages', 'projects', 'pulls', 'reactions', 'repos', 'secretScanning', 'teams', 'users',
]);

/**
 * `github.repos.listForUser({ username })` in a package that depends on an Octokit REST client: an
 * endpoint method of a listing, called by itself, answers with ONE page (30 items unless
 * `per_page` says otherwise, 100 at most). All pages come only through `octokit.paginate(method, …)`,
 * which hands the method over uncalled, so that shape is never this one. The client is told by its
 * endpoint namespace and the declared dependency, for clients made in a module out of sight.
 */
export function isOnePageListing(filename: string, call: TSESTree.CallExpression): boolean {
  return isListingMethod(call.callee) && OCTOKIT_PACKAGES.some((p) => declaresDependency(filename, p));
}

/**
 * `octokit.paginate(octokit.rest.repos.listForOrg, { org })`: every page of the listing, one
 * request after another, so the result is as long as the listing. Octokit's `paginate` is no page
 * bound, whatever a query builder's method of that name is.
 */
export function isAllPagesListing(filename: string, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  const listing = call.arguments[0];
  return callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'paginate' && listing !== undefined &&
    listing.type !== AST_NODE_TYPES.SpreadElement && isListingMethod(listing) && OCTOKIT_PACKAGES.some((p) => declaresDependency(filename, p));
}

/** `github.repos.listForUser`, `octokit.rest.issues.listForRepo`: a listing method of an endpoint namespace. */
function isListingMethod(node: TSESTree.Node): boolean {
  const method = skipTransparent(node);
  if (method.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = staticPropertyName(method);
  const namespace = skipTransparent(method.object);
  if (name === null || !/^list(?:[A-Z]|$)/.test(name) || namespace.type !== AST_NODE_TYPES.MemberExpression) return false;
  const group = staticPropertyName(namespace);
  return group !== null && OCTOKIT_NAMESPACES.has(group);
}
