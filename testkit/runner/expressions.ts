/**
 * Expressions for the workflow engine, on GitHub's own evaluator (@actions/expressions): one
 * expression with the status functions, `${{ }}` in a string, and a parsed template token's value.
 */
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Context = Record<string, Json>;

function toData(value: Json): data.ExpressionData {
  return JSON.parse(JSON.stringify(value), data.reviver) as data.ExpressionData;
}

/** How `if:` reads a value: null, false, 0, NaN and the empty string are false. */
export function truthy(value: data.ExpressionData): boolean {
  switch (value.kind) {
    case data.Kind.Null:
      return false;
    case data.Kind.Boolean:
      return (value as data.BooleanData).value;
    case data.Kind.Number:
      return value.number() !== 0 && !Number.isNaN(value.number());
    case data.Kind.String:
      return value.coerceString() !== '';
    default:
      return true;
  }
}

/** Evaluates one expression (without `${{ }}`) against the contexts, with the status functions. */
export function evaluate(expr: string, context: Context, status: { failed: boolean }): data.ExpressionData {
  const functions = new Map(
    (
      [
        ['success', () => !status.failed],
        ['failure', () => status.failed],
        ['always', () => true],
        ['cancelled', () => false],
      ] as Array<[string, () => boolean]>
    ).map(([name, call]) => [
      name,
      { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(call()) },
    ]),
  );
  const tokens = new Lexer(expr).lex().tokens;
  const tree = new Parser(tokens, Object.keys(context), [...functions.values()]).parse();
  const dict = toData(context) as data.Dictionary;
  return new Evaluator(tree, dict, functions).evaluate();
}

/** A string with `${{ }}` parts replaced by their values (what the runner does for `with:`/`env:`). */
export function interpolate(text: string, context: Context, status: { failed: boolean }): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) =>
    evaluate(expr.trim(), context, status).coerceString(),
  );
}

/** A parsed template token's value: expressions evaluated, mappings and sequences as plain values. */
export function tokenValue(token: unknown, context: Context, status: { failed: boolean }): Json {
  if (token === undefined || token === null) return null;
  // The tokens' serialized form (what toJSON gives): {type, map: [{Key, Value}]}, {type, seq}, {type, expr}.
  return serializedValue(JSON.parse(JSON.stringify(token)) as unknown, context, status);
}

function serializedValue(token: unknown, context: Context, status: { failed: boolean }): Json {
  if (token === undefined || token === null) return null;
  const t = token as {
    expr?: string;
    map?: Array<{ Key: unknown; Value: unknown }>;
    seq?: unknown[];
    value?: Json;
  };
  if (typeof token !== 'object') return token as Json;
  if (t.expr !== undefined) {
    const value = evaluate(t.expr, context, status);
    return value.kind === data.Kind.String
      ? value.coerceString()
      : (JSON.parse(JSON.stringify(value, data.replacer)) as Json);
  }
  if (t.map)
    return Object.fromEntries(
      t.map.map(({ Key, Value }) => [
        String(serializedValue(Key, context, status)),
        serializedValue(Value, context, status),
      ]),
    );
  if (t.seq) return t.seq.map((item) => serializedValue(item, context, status));
  return t.value ?? String(token);
}

/** A value as the runner writes it into a string (objects as JSON). */
export const str = (value: Json): string =>
  value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
