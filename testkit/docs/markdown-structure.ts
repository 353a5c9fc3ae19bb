/**
 * Reads Markdown the way GitHub does (CommonMark with GFM tables and autolinks, via markdown-it) and
 * returns its structure: headings, tables with their cells, quotes, code blocks, links; and what
 * breaks structure in any document (`problems`): a line taken into a quote without its `>` (lazy
 * continuation: a heading or a paragraph swallowed by the quote above it), a table row with more or
 * fewer cells than its header, a line that looks like a table row or a heading in the source but
 * renders as neither; and the table cells left empty, which each test says where it allows.
 */
import MarkdownIt from 'markdown-it';

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

// GitHub renders HTML it allows (`<br>`, `<sub>`) and links bare URLs: so does this reading.
const md = new MarkdownIt({ html: true, linkify: true });

export interface Table {
  header: string[];
  rows: string[][];
}

export interface Structure {
  headings: Array<{ level: number; text: string }>;
  tables: Table[];
  /** Fenced code blocks: their info string, content, and whether they sit in a quote. */
  code: Array<{ info: string; content: string; quoted: boolean }>;
  links: Array<{ href: string; text: string }>;
  /** Text of every paragraph, outside tables. */
  paragraphs: string[];
  /** Empty table cells, as `<column> of row <n>` (rows counted under the header). */
  emptyCells: string[];
  problems: string[];
}

/** The text an inline token shows: its text and code, without the Markdown around them. */
function shown(token: Token | undefined): string {
  return (token?.children ?? [])
    .map((child: Token) =>
      child.type === 'text' || child.type === 'code_inline'
        ? child.content
        : child.type === 'softbreak' || child.type === 'hardbreak'
          ? ' '
          : '',
    )
    .join('')
    .trim();
}

export function structure(markdown: string): Structure {
  const tokens = md.parse(markdown, {});
  const lines = markdown.split('\n');
  const result: Structure = {
    headings: [],
    tables: [],
    code: [],
    links: [],
    paragraphs: [],
    emptyCells: [],
    problems: [],
  };
  const covered = { table: new Set<number>(), heading: new Set<number>(), code: new Set<number>() };
  const mark = (set: Set<number>, map: [number, number] | null): void => {
    for (let line = map?.[0] ?? 0; line < (map?.[1] ?? 0); line++) set.add(line);
  };
  let quoteDepth = 0;
  let table: Table | undefined;
  let row: string[] | undefined;
  let inHead = false;
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at];
    switch (token.type) {
      case 'blockquote_open': {
        quoteDepth++;
        // Every line a quote takes must say so: one without `>` was pulled in lazily.
        for (let line = token.map?.[0] ?? 0; line < (token.map?.[1] ?? 0); line++)
          if (lines[line].trim() !== '' && !/^\s*>/.test(lines[line]))
            result.problems.push(`line ${line + 1} is taken into the quote above it: ${lines[line]}`);
        break;
      }
      case 'blockquote_close':
        quoteDepth--;
        break;
      case 'heading_open':
        mark(covered.heading, token.map);
        result.headings.push({ level: Number(token.tag.slice(1)), text: shown(tokens[at + 1]) });
        break;
      case 'table_open':
        mark(covered.table, token.map);
        table = { header: [], rows: [] };
        result.tables.push(table);
        break;
      case 'thead_open':
        inHead = true;
        break;
      case 'thead_close':
        inHead = false;
        break;
      case 'tr_open':
        row = [];
        break;
      case 'th_open':
      case 'td_open':
        row?.push(shown(tokens[at + 1]));
        if (token.type === 'td_open' && (tokens[at + 1]?.content ?? '').trim() === '')
          result.emptyCells.push(
            `${table?.header[(row?.length ?? 1) - 1] ?? ''} of row ${(table?.rows.length ?? 0) + 1}`,
          );
        break;
      case 'tr_close':
        if (table && row) {
          if (inHead) table.header = row;
          else {
            table.rows.push(row);
            if (row.length !== table.header.length)
              result.problems.push(`a row of ${row.length} cells under a header of ${table.header.length}`);
          }
        }
        break;
      case 'fence':
        mark(covered.code, token.map);
        result.code.push({ info: token.info.trim(), content: token.content, quoted: quoteDepth > 0 });
        break;
      case 'paragraph_open':
        result.paragraphs.push(shown(tokens[at + 1]));
        break;
      case 'inline':
        for (let index = 0; index < (token.children ?? []).length; index++) {
          const child = (token.children ?? [])[index];
          if (child.type === 'link_open')
            result.links.push({
              href: String(child.attrGet('href') ?? ''),
              text: shown({ ...child, children: linkLabel(token.children ?? [], index) } as Token),
            });
        }
        break;
    }
  }
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (covered.code.has(index)) continue;
    const bare = line.replace(/^[\s>]*/, '');
    if (bare.startsWith('|') && !covered.table.has(index))
      result.problems.push(`line ${index + 1} looks like a table row but is not in a table: ${line}`);
    if (/^#{1,6}\s/.test(bare) && !covered.heading.has(index))
      result.problems.push(`line ${index + 1} looks like a heading but is not one: ${line}`);
  }
  return result;
}

/** The tokens between a link_open and its link_close. */
function linkLabel(children: Token[], open: number): Token[] {
  const label: Token[] = [];
  for (let at = open + 1; at < children.length && children[at].type !== 'link_close'; at++)
    label.push(children[at]);
  return label;
}
