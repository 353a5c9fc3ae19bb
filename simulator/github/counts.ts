/**
 * What reached GitHub, counted per repository and token, by kind: REST reads, REST writes, GraphQL
 * requests and the points they cost (what GitHub's budgets count: limits.ts). A refused request
 * counts too (GitHub counts it against the primary budget unless it was the limit itself that
 * refused it, and a client pays its round trip either way); `refused` says how many were. Tokens are
 * named by their account (`installation:github-actions[bot]`), never by their value.
 */

export interface GitHubCount {
  /** `owner/repo` (for GraphQL, the repository of the token's budget). */
  repository: string;
  /** The token's kind and account: `installation:github-actions[bot]`, `user:octo-dev`. */
  token: string;
  restReads: number;
  restWrites: number;
  graphqlRequests: number;
  graphqlPoints: number;
  /** Of these requests, how many GitHub refused (4xx, or a GraphQL 200 with `errors` and no data). */
  refused: number;
}

export type CountKind = 'rest-read' | 'rest-write' | 'graphql';

export class Counts {
  private readonly rows = new Map<string, GitHubCount>();

  reset(): void {
    this.rows.clear();
  }

  add(repository: string, token: string, kind: CountKind, points: number, refused: boolean): GitHubCount {
    const key = `${repository.toLowerCase()}|${token}`;
    let row = this.rows.get(key);
    if (!row) {
      row = {
        repository,
        token,
        restReads: 0,
        restWrites: 0,
        graphqlRequests: 0,
        graphqlPoints: 0,
        refused: 0,
      };
      this.rows.set(key, row);
    }
    if (kind === 'rest-read') row.restReads++;
    else if (kind === 'rest-write') row.restWrites++;
    else {
      row.graphqlRequests++;
      row.graphqlPoints += points;
    }
    if (refused) row.refused++;
    return row;
  }

  /** Every row, or those of `repository`. */
  list(repository?: string): GitHubCount[] {
    const rows = [...this.rows.values()].map((row) => ({ ...row }));
    return repository
      ? rows.filter((row) => row.repository.toLowerCase() === repository.toLowerCase())
      : rows;
  }

  /** The rows of `repository` summed (every token). */
  total(repository?: string): Omit<GitHubCount, 'repository' | 'token'> {
    const sum = { restReads: 0, restWrites: 0, graphqlRequests: 0, graphqlPoints: 0, refused: 0 };
    for (const row of this.list(repository)) {
      sum.restReads += row.restReads;
      sum.restWrites += row.restWrites;
      sum.graphqlRequests += row.graphqlRequests;
      sum.graphqlPoints += row.graphqlPoints;
      sum.refused += row.refused;
    }
    return sum;
  }
}

/** What the log says of a repository's counts: `acme/app so far: 3 REST reads, 5 REST writes, 2 GraphQL points`. */
export function countLine(repository: string, total: Omit<GitHubCount, 'repository' | 'token'>): string {
  return `${repository} so far: ${total.restReads} REST reads, ${total.restWrites} REST writes, ${total.graphqlPoints} GraphQL points`;
}
