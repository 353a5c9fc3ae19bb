/**
 * GitHub's GraphQL API (`POST /graphql`), executed for real against GitHub's published schema
 * (graphql-schema.ts): any query GitHub's schema accepts over the fields resolved below is answered;
 * one it refuses gets a 200 whose `errors` say why, as GitHub answers
 * (docs.github.com/en/graphql/guides/forming-calls-with-graphql). Resolved:
 * - `viewer { login }` (a Bot's login with `[bot]`: docs.github.com/en/graphql/reference/objects#bot);
 * - `rateLimit { cost limit nodeCount remaining used resetAt }` (graphql-cost.ts says the cost);
 * - `repository(owner, name) { pullRequests(states, first/last, after/before, orderBy) }`, each pull
 *   request with `number title headRefOid headRefName baseRefName state createdAt`, `commits` (its head
 *   commit), and `mergeQueueEntry { headCommit position state }` (null unless a world queued it);
 * - a commit's `oid` and `status { state contexts }`: `contexts` lists the latest status of each
 *   context only, compared case-insensitively (docs: objects#status, "contexts: The individual
 *   status contexts for this commit"), `null` when the commit has no status; each StatusContext's
 *   `id` is the status's node id, its `state` upper case, and its `creator { login }` WITHOUT `[bot]`
 *   for a Bot (reported: a status's creator in GraphQL is the app's bot without the suffix, as GitHub's
 *   Bot logins are in GraphQL; see fullsend-ai/fullsend#1953 for viewer's `[bot]` form).
 * A field the token may not read is null with a `FORBIDDEN` error (permissions.ts gives the words).
 * Pull requests are ordered as GitHub's connection orders them without `orderBy`: oldest first.
 */
import { execute, GraphQLError, parse, validate, type DocumentNode } from 'graphql';
import type { PostedStatus, PullRequest } from './model.js';
import { githubSchema } from './graphql-schema.js';
import { queryCost, type GitHubGraphQLError, type QueryCost } from './graphql-cost.js';
import { identity, latestPerContext, statusesOf } from './statuses.js';

/** What a query reads of the stand-in, and what its token may read. */
export interface GraphQLData {
  viewer: string;
  now: number;
  statuses: readonly PostedStatus[];
  /** The open pull requests of `owner/name`, oldest first. */
  pullRequests(repository: string): PullRequest[];
  rateLimit: { limit: number; remaining: number; used: number; resetAt: string };
  /** Null when allowed, else the refusal's message. */
  refusal(permission: 'pull_requests' | 'statuses', repository: string): string | null;
}

/** A query read and priced, ready to run; or GitHub's refusal of it before it runs. */
export type Prepared =
  | {
      ok: true;
      document: DocumentNode;
      variables: Record<string, unknown>;
      operationName?: string;
      cost: QueryCost;
    }
  | { ok: false; errors: GitHubGraphQLError[] };

export function prepare(raw: unknown): Prepared {
  const { query, variables, operationName } = (raw ?? {}) as Record<string, unknown>;
  if (typeof query !== 'string')
    return { ok: false, errors: [{ message: 'A query attribute must be specified and must be a string.' }] };
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    const e = error as GraphQLError;
    return { ok: false, errors: [{ message: e.message, locations: e.locations }] };
  }
  const schema = githubSchema();
  const invalid = validate(schema, document);
  if (invalid.length) return { ok: false, errors: invalid.map(githubValidationError) };
  const vars = (variables && typeof variables === 'object' ? variables : {}) as Record<string, unknown>;
  const name = typeof operationName === 'string' ? operationName : undefined;
  const cost = queryCost(schema, document, vars, name);
  if (cost.errors.length) return { ok: false, errors: cost.errors };
  return { ok: true, document, variables: vars, ...(name ? { operationName: name } : {}), cost };
}

/** GitHub's words for the commonest refusal (an unknown field), graphql-js's for the others. */
function githubValidationError(error: GraphQLError): GitHubGraphQLError {
  const unknown = /^Cannot query field "([^"]+)" on type "([^"]+)"/.exec(error.message);
  return {
    ...(unknown
      ? { extensions: { code: 'undefinedField', typeName: unknown[2], fieldName: unknown[1] } }
      : {}),
    locations: error.locations,
    message: unknown ? `Field '${unknown[1]}' doesn't exist on type '${unknown[2]}'` : error.message,
  };
}

/** Runs a prepared query: GitHub's `{ data, errors? }`. */
export function run(prepared: Extract<Prepared, { ok: true }>, data: GraphQLData): Record<string, unknown> {
  const result = execute({
    schema: githubSchema(),
    document: prepared.document,
    variableValues: prepared.variables,
    operationName: prepared.operationName,
    rootValue: root(data, prepared.cost),
  }) as { data?: unknown; errors?: readonly GraphQLError[] };
  const errors = (result.errors ?? []).map((error) => ({
    ...(error.extensions?.type ? { type: error.extensions.type as string } : {}),
    path: error.path,
    locations: error.locations,
    message: error.message,
  }));
  return { data: result.data ?? null, ...(errors.length ? { errors } : {}) };
}

const forbidden = (message: string): GraphQLError =>
  new GraphQLError(message, { extensions: { type: 'FORBIDDEN' } });

/** A cursor: the place in the ordered list, opaque to clients as GitHub's are. */
const cursorOf = (index: number): string => Buffer.from(`cursor:v2:${index}`).toString('base64');
const indexOf = (cursor: unknown): number | undefined => {
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(String(cursor ?? ''), 'base64').toString());
  return match ? Number(match[1]) : undefined;
};

interface PageArgs {
  first?: number;
  last?: number;
  after?: string;
  before?: string;
}

/** A connection over `all` (graphql-cost.ts has already refused a missing or excessive size). */
export function connection<T>(all: readonly T[], args: PageArgs, node: (item: T) => unknown): unknown {
  let from = 0;
  let to = all.length;
  const after = indexOf(args.after);
  const before = indexOf(args.before);
  if (after !== undefined) from = after + 1;
  if (before !== undefined) to = Math.min(to, before);
  if (args.first != null) to = Math.min(to, from + args.first);
  else if (args.last != null) from = Math.max(from, to - args.last);
  const places = Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  return {
    totalCount: all.length,
    pageInfo: {
      hasNextPage: to < all.length,
      hasPreviousPage: from > 0,
      startCursor: places.length ? cursorOf(places[0]) : null,
      endCursor: places.length ? cursorOf(places.at(-1)!) : null,
    },
    nodes: places.map((i) => node(all[i])),
    edges: places.map((i) => ({ cursor: cursorOf(i), node: node(all[i]) })),
  };
}

const GRAPHQL_STATE: Record<string, string> = {
  pending: 'PENDING',
  success: 'SUCCESS',
  failure: 'FAILURE',
  error: 'ERROR',
};

function root(data: GraphQLData, cost: QueryCost): Record<string, unknown> {
  const commit = (repository: string, oid: string): Record<string, unknown> => ({
    __typename: 'Commit',
    oid,
    abbreviatedOid: oid.slice(0, 7),
    status: () => {
      const refused = data.refusal('statuses', repository);
      if (refused) throw forbidden(refused);
      const latest = latestPerContext(statusesOf(data.statuses, repository, oid).reverse());
      if (!latest.length) return null;
      const contexts = latest.map((status) => statusContext(status));
      const states = latest.map((status) => status.state);
      const state = states.some((s) => s === 'error')
        ? 'ERROR'
        : states.some((s) => s === 'failure')
          ? 'FAILURE'
          : states.some((s) => s === 'pending')
            ? 'PENDING'
            : 'SUCCESS';
      return {
        state,
        contexts,
        context: ({ name }: { name: string }) =>
          contexts.find((c) => c.context.toLowerCase() === name.toLowerCase()) ?? null,
      };
    },
  });
  const statusContext = (status: PostedStatus): Record<string, unknown> & { context: string } => {
    const { node_id, created_at } = identity(status, data.statuses, data.now);
    const login = status.creator?.login ?? data.viewer;
    const bot = login.endsWith('[bot]');
    return {
      __typename: 'StatusContext',
      id: node_id,
      context: status.context,
      state: GRAPHQL_STATE[status.state] ?? 'ERROR',
      description: status.description ?? null,
      targetUrl: status.target_url ?? null,
      createdAt: created_at,
      isRequired: () => false,
      creator: { __typename: bot ? 'Bot' : 'User', login: bot ? login.slice(0, -'[bot]'.length) : login },
    };
  };
  const pullRequest = (repository: string, pr: PullRequest): Record<string, unknown> => ({
    __typename: 'PullRequest',
    number: pr.number,
    title: pr.title,
    state: 'OPEN',
    isDraft: false,
    createdAt: pr.created_at ?? new Date(data.now).toISOString(),
    headRefOid: pr.head,
    headRefName: pr.headRef ?? `pr-${pr.number}`,
    baseRefName: pr.baseRef ?? 'main',
    url: `https://github.com/${repository}/pull/${pr.number}`,
    commits: (args: PageArgs) => connection([pr.head], args, (oid) => ({ commit: commit(repository, oid) })),
    mergeQueueEntry: pr.queue
      ? {
          // The queue has not built the group's commit yet: GitHub gives no head commit.
          headCommit: pr.queue.head ? commit(repository, pr.queue.head) : null,
          position: pr.queue.position ?? 0,
          state: pr.queue.state ?? 'AWAITING_CHECKS',
        }
      : null,
  });
  return {
    viewer: { login: data.viewer },
    rateLimit: { cost: cost.cost, nodeCount: cost.nodeCount, ...data.rateLimit },
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const repository = `${owner}/${name}`;
      return {
        nameWithOwner: repository,
        name,
        pullRequests: (
          args: PageArgs & { states?: string[]; orderBy?: { field: string; direction: string } },
        ) => {
          const refused = data.refusal('pull_requests', repository);
          if (refused) throw forbidden(refused);
          // Only open pull requests are held: a filter without OPEN lists none.
          let all = args.states && !args.states.includes('OPEN') ? [] : data.pullRequests(repository);
          if (args.orderBy?.direction === 'DESC') all = [...all].reverse();
          return connection(all, args, (pr) => pullRequest(repository, pr));
        },
      };
    },
  };
}
