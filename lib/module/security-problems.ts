import type { OpenApiSecurityScheme } from '../openapi/openapi.types.js';

type Candidate = Record<string, unknown>;

const isObject = (value: unknown): value is Candidate =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): boolean => typeof value === 'string' && value.length > 0;
const isTextList = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** What each type of scheme needs (OpenAPI 3.1's Security Scheme Object): a problem, or undefined. */
const SCHEME_CHECKS: Readonly<Record<OpenApiSecurityScheme['type'], (scheme: Candidate) => string | undefined>> = {
  http: (scheme) => (isText(scheme.scheme) ? undefined : 'scheme must be a string such as "bearer" or "basic"'),
  apiKey: (scheme) =>
    isText(scheme.name) && ['header', 'query', 'cookie'].includes(scheme.in as string)
      ? undefined
      : 'an API key needs a name and in: "header", "query" or "cookie"',
  oauth2: (scheme) =>
    isObject(scheme.flows) &&
    Object.keys(scheme.flows).length > 0 &&
    Object.values(scheme.flows).every((flow) => isObject(flow) && isObject(flow.scopes))
      ? undefined
      : 'flows must have at least one flow, each with its scopes',
  openIdConnect: (scheme) => (isText(scheme.openIdConnectUrl) ? undefined : 'openIdConnectUrl must be a URL'),
};

function schemeProblem(scheme: unknown): string | undefined {
  if (!isObject(scheme) || typeof scheme.type !== 'string' || !Object.hasOwn(SCHEME_CHECKS, scheme.type))
    return 'type must be "http", "apiKey", "oauth2" or "openIdConnect"';
  return SCHEME_CHECKS[scheme.type as OpenApiSecurityScheme['type']](scheme);
}

/** Problems of one requirement: each name must be a scheme, with its scopes. */
function requirementProblems(requirement: unknown, at: string, schemes: Candidate): string[] {
  if (!isObject(requirement)) return [`"${at}": must be an object { schemeName: scopes }`];
  return Object.entries(requirement).flatMap(([name, scopes]) => {
    if (!Object.hasOwn(schemes, name)) return [`"${at}.${name}": not a scheme of openapi.securitySchemes`];
    return isTextList(scopes) ? [] : [`"${at}.${name}": scopes must be an array of strings`];
  });
}

/**
 * Problems of `openapi.securitySchemes` and `openapi.security`, named by their path: checked when
 * the module is declared, so a typo fails start-up rather than leaving Swagger UI without Authorize.
 */
export function securityProblems(schemes: unknown, security: unknown): string[] {
  if (schemes !== undefined && !isObject(schemes))
    return ['"openapi.securitySchemes": must be an object of security schemes by name'];
  const known = schemes ?? {};
  const problems = Object.entries(known).flatMap(([name, scheme]) => {
    const problem = schemeProblem(scheme);
    return problem ? [`"openapi.securitySchemes.${name}": ${problem}`] : [];
  });
  if (security === undefined) return problems;
  if (!Array.isArray(security))
    return [...problems, '"openapi.security": must be an array of requirements ({ schemeName: scopes })'];
  return [
    ...problems,
    ...security.flatMap((requirement, index) => requirementProblems(requirement, `openapi.security.${index}`, known)),
  ];
}
