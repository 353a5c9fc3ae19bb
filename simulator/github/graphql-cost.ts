/**
 * What a GraphQL query costs and whether its connections are paginated as GitHub requires
 * (docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api):
 * - "You must supply a `first` or `last` argument on any connection", of 1 to 100;
 * - its points: "add up the number of requests needed to fulfill each unique connection in the
 *   call. Assume every request will reach the first or last argument limits. Divide the number by 100
 *   and round the result to get the final aggregate cost. If you have fewer than 100 requests, the
 *   cost is 1" (the node count is the sum of the nodes each connection may return, multiplied down).
 * The messages of the refusals are those GitHub gives (the pages' examples and the reports quoted in
 * the field notes); a mutation costs 1 point here (GitHub's page: "a mutation ... 1 point", when it
 * is not a secondary limit's matter).
 */
import {
  getNamedType,
  isCompositeType,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export const MAX_CONNECTION_SIZE = 100;

export interface GitHubGraphQLError {
  type?: string;
  path?: ReadonlyArray<string | number>;
  locations?: ReadonlyArray<{ line: number; column: number }>;
  message: string;
}

export interface QueryCost {
  /** Points the query costs (at least 1). */
  cost: number;
  nodeCount: number;
  /** Refusals of its pagination: when any, the query is not run. */
  errors: GitHubGraphQLError[];
  mutation: boolean;
}

/** The operation `operationName` names (or the only one). */
export function operationOf(
  document: DocumentNode,
  operationName?: string,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  return operationName ? operations.find((op) => op.name?.value === operationName) : operations[0];
}

export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operationName?: string,
): QueryCost {
  const operation = operationOf(document, operationName);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const errors: GitHubGraphQLError[] = [];
  let requests = 0;
  let nodeCount = 0;
  const walk = (
    type: GraphQLCompositeType,
    selections: SelectionSetNode,
    times: number,
    path: string[],
  ): void => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        const on = fragment && schema.getType(fragment.typeCondition.name.value);
        if (fragment && on && isCompositeType(on)) walk(on, fragment.selectionSet, times, path);
        continue;
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        if (on && isCompositeType(on)) walk(on, selection.selectionSet, times, path);
        continue;
      }
      const name = selection.name.value;
      const fields = 'getFields' in type ? type.getFields() : {};
      const field = fields[name];
      if (!field || !selection.selectionSet) continue;
      const named = getNamedType(field.type);
      const here = [...path, selection.alias?.value ?? name];
      let inner = times;
      if (named.name.endsWith('Connection')) {
        const args: Record<string, unknown> = {};
        for (const arg of selection.arguments ?? [])
          args[arg.name.value] = valueFromASTUntyped(arg.value, variables);
        const size = pageSize(name, args, here, errors);
        requests += times;
        inner = times * size;
        nodeCount += inner;
      }
      if (isCompositeType(named)) walk(named, selection.selectionSet, inner, here);
    }
  };
  const root = operation?.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (operation && root) walk(root, operation.selectionSet, 1, [operation.operation]);
  return {
    cost: operation?.operation === 'mutation' ? 1 : Math.max(1, Math.round(requests / 100)),
    nodeCount,
    errors,
    mutation: operation?.operation === 'mutation',
  };
}

/** The size a connection asks for, or an error (then 1, so the walk goes on to find the others). */
function pageSize(
  connection: string,
  args: Record<string, unknown>,
  path: string[],
  errors: GitHubGraphQLError[],
): number {
  const { first, last } = args as { first?: unknown; last?: unknown };
  const given = first ?? last;
  const which = first !== undefined && first !== null ? 'first' : 'last';
  if (given === undefined || given === null) {
    errors.push({
      type: 'MISSING_PAGINATION_BOUNDARIES',
      path,
      message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${connection}\` connection.`,
    });
    return 1;
  }
  const n = Number(given);
  if (n > MAX_CONNECTION_SIZE) {
    errors.push({
      type: 'EXCESSIVE_PAGINATION',
      path,
      message: `Requesting ${n} records on the \`${connection}\` connection exceeds the \`${which}\` limit of ${MAX_CONNECTION_SIZE} records.`,
    });
    return 1;
  }
  if (n < 1) {
    // The page says "Values of first and last must be within 1-100"; GitHub's words for 0 are not
    // documented, these follow its message for a negative value.
    errors.push({
      type: 'EXCESSIVE_PAGINATION',
      path,
      message: `\`${which}\` on the \`${connection}\` connection cannot be less than one.`,
    });
    return 1;
  }
  return n;
}
