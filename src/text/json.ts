/** Reading parsed JSON or YAML: the test before reading the fields of a value from elsewhere. */

/** A plain object (not null, not an array): the one test before reading fields of parsed JSON. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
