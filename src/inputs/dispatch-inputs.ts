/**
 * `inputs` of run-workflow: the workflow_dispatch inputs as a YAML or JSON mapping of scalars, read
 * so that YAML never changes a value on the way (a number it would read differently is refused).
 */
import { isMap, isScalar, LineCounter, parseDocument, visit, type Scalar, type YAMLError } from 'yaml';
import { InputProblem, shown, type Parser } from './problems.js';
import { CONTROL } from '../text/one-line.js';

export type DispatchInputs = Record<string, string | number | boolean>;

const YAML_PROBLEMS: Partial<Record<YAMLError['code'], string>> = {
  BAD_INDENT: 'the indentation is not consistent',
  TAB_AS_INDENT: 'a tab is used for indentation (use spaces)',
  MISSING_CHAR: 'a closing quote or bracket is missing',
  BAD_DQ_ESCAPE: 'a double-quoted string has an invalid escape',
  MULTILINE_IMPLICIT_KEY: 'a key spans more than one line (is a `:` missing?)',
  UNEXPECTED_TOKEN: 'something unexpected is there',
  BLOCK_AS_IMPLICIT_KEY: 'a block is used as a key',
  MULTIPLE_DOCS: 'there is more than one document (`---`)',
  BAD_SCALAR_START: 'a value starts with a character that needs quoting',
};

/**
 * `inputs`: a mapping written as YAML or JSON; scalar values only; no anchors, aliases or tags.
 * YAML would silently change some numbers (`1.10` → 1.1, `0x1F` → 31, digits lost past 2^53):
 * those are refused with a message that says to quote them, never sent changed, and that repeats
 * the value in neither form.
 */
export const dispatchInputs: Parser<DispatchInputs> = (value, name) => {
  const lineCounter = new LineCounter();
  const document = parseDocument(value, { uniqueKeys: true, prettyErrors: false, lineCounter });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const { line, col } = lineCounter.linePos(first.pos[0]);
    const what =
      first.code === 'DUPLICATE_KEY'
        ? `the key \`${keyAt(value, first.pos[0])}\` appears more than once`
        : (YAML_PROBLEMS[first.code] ?? 'it cannot be read');
    throw new InputProblem(`\`${name}\` is not valid YAML or JSON: at line ${line}, column ${col}, ${what}.`);
  }
  let special: string | undefined;
  visit(document, {
    Alias: () => {
      special = 'aliases (*name)';
      return visit.BREAK;
    },
    Node: (_key, node) => {
      if ('anchor' in node && node.anchor) special = 'anchors (&name)';
      else if ('tag' in node && node.tag) special = 'tags (!tag)';
      return special ? visit.BREAK : undefined;
    },
  });
  if (special)
    throw new InputProblem(`\`${name}\` must be a plain mapping; YAML ${special} are not allowed.`);
  if (!isMap(document.contents))
    throw new InputProblem(
      `\`${name}\` must be a mapping of input names to values, such as \`profile: preview\`.`,
    );

  const entries: [string, string | number | boolean][] = [];
  const problems: string[] = [];
  for (const pair of document.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const where = () => `\`${name}.${shown(key).replace(/`/g, '')}\``;
    if (key.trim() === '' || CONTROL.test(key)) {
      problems.push(`\`${name}\` has an empty or unprintable key.`);
      continue;
    }
    const node = pair.value;
    if (!isScalar(node) || !['string', 'number', 'boolean'].includes(typeof node.value)) {
      problems.push(`${where()} must be a string, number or boolean (workflow_dispatch inputs are scalars).`);
      continue;
    }
    // Neither the value as written nor as read is repeated: either may be a secret, and the runner
    // masks a secret only in the form it knows.
    if (typeof node.value === 'number' && numberChanged(node as Scalar<number>, value)) {
      problems.push(
        `${where()} is a number that YAML would change (it reads \`1.10\` as 1.1, \`0x1F\` as 31, and long numbers with lost digits); quote it to send it as written.`,
      );
      continue;
    }
    entries.push([key, node.value as string | number | boolean]);
  }
  if (problems.length > 0) throw new InputProblem(problems.join(' '));
  // fromEntries defines own properties: a `__proto__` key is kept as a key, not swallowed.
  return Object.fromEntries(entries);
};

/** The source text of a number when YAML's reading of it differs from what was written. */
function numberChanged(node: Scalar<number>, source: string): string | undefined {
  const written = node.range ? source.slice(node.range[0], node.range[1]).trim() : String(node.value);
  if (!Number.isSafeInteger(node.value) && Number.isInteger(node.value)) return written;
  return String(node.value) === written ? undefined : written;
}

function keyAt(source: string, offset: number): string {
  const match = /^\s*["']?([^"':\n]*)/.exec(source.slice(offset));
  return (match?.[1] ?? '').trim().slice(0, 60);
}
