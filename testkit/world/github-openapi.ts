/**
 * GitHub's own REST description (`@octokit/openapi`, api.github.com) as a validator of the stand-in's
 * answers: the schema GitHub gives for a route and status, or, for a status the route does not list
 * (a refusal every route can give: 401, 403, 404, 422, 429, 5xx), the shared response GitHub's
 * description uses for it elsewhere (`components.responses`: requires_authentication, forbidden,
 * not_found, validation_failed, service_unavailable; `basic-error` for the others).
 *
 * ajv 8 validates (it knows OpenAPI 3.0's `nullable`; ajv-formats its `date-time` and `uri`). The
 * description is read from `api.github.com.json` with its `$ref`s resolved by ajv rather than from
 * `api.github.com.deref.json`: the same description, 13 MB to parse instead of 73 MB (0.2 s against
 * 2.3 s, and a fraction of the memory in a test worker). The stand-in does not serve the `/api/v3`
 * (GHES) layout, so the GHES descriptions are not read. Tests only: never src/ or dist/.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

interface Response {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface Description {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  components: { responses: Record<string, Response> } & Record<string, unknown>;
}

const FALLBACK: Record<number, string> = {
  401: 'requires_authentication',
  403: 'forbidden',
  404: 'not_found',
  422: 'validation_failed',
  503: 'service_unavailable',
};

const pointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

export class GitHubDescription {
  private readonly description: Description;
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
    this.description = JSON.parse(readFileSync(file, 'utf8')) as Description;
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    // ajv-formats is CommonJS: its default export arrives wrapped under ESM.
    const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
      addFormatsModule) as unknown as (ajv: Ajv) => void;
    addFormats(this.ajv);
    this.ajv.addSchema({ paths: this.description.paths, components: this.description.components }, 'api');
  }

  /** Whether GitHub describes `method` on `path` (an OpenAPI path such as `/repos/{owner}/{repo}/pulls`). */
  has(path: string, method: string): boolean {
    return Boolean(this.description.paths[path]?.[method.toLowerCase()]);
  }

  /** Where the schema of this answer is in the description (a JSON pointer into it), or null. */
  schemaOf(path: string, method: string, status: number): string | null {
    const operation = this.description.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`GitHub's description has no ${method} ${path}`);
    const listed = operation.responses[String(status)];
    let at: string;
    let response: Response | undefined;
    if (listed && !listed.$ref) {
      at = `#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${status}`;
      response = listed;
    } else {
      const name = listed?.$ref?.replace('#/components/responses/', '') ?? FALLBACK[status] ?? null;
      if (!name) return `#/components/schemas/basic-error`;
      at = `#/components/responses/${pointer(name)}`;
      response = this.description.components.responses[name];
    }
    if (!response?.content?.['application/json']?.schema) return null;
    return `${at}/content/application~1json/schema`;
  }

  /** The errors of `body` against the schema of this answer (none when it validates, or has no body to hold). */
  errors(path: string, method: string, status: number, body: unknown): string[] {
    const at = this.schemaOf(path, method, status);
    if (at === null) return body === undefined ? [] : [`GitHub describes no body for ${status}`];
    let validate = this.compiled.get(at);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `api${at}` });
      this.compiled.set(at, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
  }
}
