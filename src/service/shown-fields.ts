/**
 * The string fields of the service's answers that the action shows (a link, a status, a time, a
 * name), read through the one-line rule with a length bound (text/one-line.ts oneLine): whatever the
 * service sends, they reach the log, the outputs and the summary as one line of text, never as
 * extra lines or raw escape sequences. contract.ts builds its schemas from these; secrets
 * (remoteConfig), job outputs and the commit message (its first line is shown) are kept as sent.
 */
import * as z from 'zod/mini';
import { oneLine } from '../text/one-line.js';

/** A string cut to one line of at most `max` characters. */
export const line = (max: number) =>
  z.pipe(
    z.string(),
    z.transform((text: string) => oneLine(text, max)),
  );
export const shownText = z.optional(z.nullable(line(255)));
export const link = z.optional(z.nullable(line(2048)));
export const time = z.optional(z.nullable(line(64)));
export const status = line(64);
