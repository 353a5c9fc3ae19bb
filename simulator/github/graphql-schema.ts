/**
 * GitHub's published GraphQL schema (`@octokit/graphql-schema`, a development dependency: the
 * simulator and the tests only, never dist/), built once and kept. From its introspection JSON
 * (`schema.json`, what the package's own `validate` builds from): its IDL defines two fields twice,
 * which `buildSchema` refuses, and the JSON builds in about a third of the time (0.6 s against 1.5 s).
 * Read from the file, not imported: the package's index parses the JSON and builds a second schema
 * for its `validate` as soon as it is imported.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';

let cached: GraphQLSchema | undefined;

/** The installed package's `schema.json`, found up from this module's folder as Node would. */
function schemaFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'node_modules', '@octokit', 'graphql-schema', 'schema.json');
    if (existsSync(file)) return file;
    const up = dirname(dir);
    if (up === dir) throw new Error('@octokit/graphql-schema is not installed (npm ci installs it)');
    dir = up;
  }
}

export function githubSchema(): GraphQLSchema {
  cached ??= buildClientSchema(JSON.parse(readFileSync(schemaFile(), 'utf8')) as IntrospectionQuery);
  return cached;
}
