/**
 * The tie between a summary's list of shown fields and its renderer (src/text/shown.ts): what the
 * list copies, and the two mistakes `npm run typecheck` refuses (each `@ts-expect-error` below
 * fails the typecheck if the mistake ever compiles).
 */
import { noneLeft, pickShown } from '../../src/text/shown.js';

interface Answer {
  id: string;
  status: string;
  url?: string | null;
  secret: string;
}

const SHOWN = ['id', 'status', 'url'] as const;
type Shown = Pick<Answer, (typeof SHOWN)[number]>;

const answer: Answer = { id: 'a1', status: 'stopped', url: null, secret: 's3cr3t' };

test('pickShown copies exactly the listed fields, absent ones included', () => {
  expect(pickShown(answer, SHOWN)).toEqual({ id: 'a1', status: 'stopped', url: null });
  expect(Object.keys(pickShown({ id: 'a2', status: 'new', secret: '' } as Answer, SHOWN))).toEqual([
    'id',
    'status',
    'url',
  ]);
});

test('a renderer that takes every listed field compiles; one that leaves a field, or reads an unlisted one, does not', () => {
  const render = (shown: Shown): string => {
    const { id, status, url, ...unrendered } = shown;
    noneLeft(unrendered);
    return `${id} ${status} ${url ?? ''}`;
  };
  const leavesUrl = (shown: Shown): string => {
    const { id, status, ...unrendered } = shown;
    // @ts-expect-error `url` is listed but not rendered
    noneLeft(unrendered);
    return `${id} ${status}`;
  };
  const readsUnlisted = (shown: Shown): string => {
    const { id, status, url, ...unrendered } = shown;
    noneLeft(unrendered);
    // @ts-expect-error `secret` is not in the list
    return `${id} ${status} ${url} ${shown.secret}`;
  };
  expect(render(pickShown(answer, SHOWN))).toBe('a1 stopped ');
  expect(leavesUrl(pickShown(answer, SHOWN))).toBe('a1 stopped');
  // The list kept the secret out: an unlisted field is not even there at run time.
  expect(readsUnlisted(pickShown(answer, SHOWN))).toBe('a1 stopped null undefined');
});
