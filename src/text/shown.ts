/**
 * A summary's list of shown fields, tied to its renderer by type. The list (`as const`) is what
 * `pickShown` copies from the service's answer, and the renderer's input is `Pick<T, listed>`, so
 * rendering a field that is not listed is a type error. The renderer takes the listed fields apart
 * at its top, `const { a, b, ...unrendered } = shown; noneLeft(unrendered);`, so a field listed
 * and not taken is a type error too (and one taken and not used fails eslint's no-unused-vars).
 * A field added to the service's answer is then shown, or left out, by a line a reviewer reads.
 */

/** Exactly the listed fields of `value`: nothing else reaches the renderer (large fields, secrets). */
export function pickShown<T extends object, K extends keyof T>(value: T, fields: readonly K[]): Pick<T, K> {
  return Object.fromEntries(fields.map((field) => [field, value[field]])) as Pick<T, K>;
}

/** The renderer's check that it took every listed field: what is left must be nothing. */
export function noneLeft(_unrendered: Record<string, never>): void {}
