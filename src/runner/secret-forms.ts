/**
 * The forms a secret can take once text around it is rendered: percent-encoded by a link, escaped
 * by Markdown or JSON, written as HTML entities, base64-encoded. The runner masks only exact copies,
 * and nothing masks a pull-request comment, so before text leaves for a place like that it is read
 * back in every decoding (`decodedViews`) and searched for each secret, and searched for each
 * secret's base64 forms (`base64Forms`), which no decoding of the whole text reveals.
 */

/** A backslash before ASCII punctuation: CommonMark's escape. */
const MARKDOWN_ESCAPE = /\\([!-/:-@[-`{-~])/g;
/** Runs of percent-encoded bytes, decoded together so that multi-byte characters come back whole. */
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
/** The zero-width space that markdownText puts after `@` and before issue numbers. */
const ZERO_WIDTH = /\u200b/g;

function percentDecoded(text: string): string {
  return text.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function entitiesDecoded(text: string): string {
  return text
    .replace(/&#(\d{1,7});/g, (_, code: string) => String.fromCodePoint(Math.min(Number(code), 0x10ffff)))
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, code: string) =>
      String.fromCodePoint(Math.min(parseInt(code, 16), 0x10ffff)),
    )
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(ZERO_WIDTH, '');
}

const JSON_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

function jsonUnescaped(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_, escape: string) =>
    escape.startsWith('u')
      ? String.fromCharCode(parseInt(escape.slice(1), 16))
      : (JSON_ESCAPES[escape] ?? escape),
  );
}

/** `text` as it is and as each decoding (and their chain: entities, Markdown, percent) reads it. */
export function decodedViews(text: string): string[] {
  const entities = entitiesDecoded(text);
  const markdown = entities.replace(MARKDOWN_ESCAPE, '$1');
  return [
    text,
    entities,
    markdown,
    percentDecoded(text),
    percentDecoded(markdown),
    percentDecoded(percentDecoded(markdown)),
    jsonUnescaped(text),
  ];
}

/** Base64 of a secret shorter than this is too short to tell from chance. */
const MIN_BASE64 = 8;

/**
 * The characters of base64 (and base64url) that only `secret` decides, at each of the three
 * alignments it can have inside a longer encoded text.
 */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // Characters that mix in the bytes before (offset) or after (an incomplete last group) are dropped.
    const start = [0, 2, 3][offset];
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : encoded.length - 1;
    const core = encoded.slice(start, end);
    if (core.length < MIN_BASE64) continue;
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}
