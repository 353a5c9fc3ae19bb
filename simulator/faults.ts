/**
 * Fault injection: each fault matches requests by method and path, applies `times` times (default 1),
 * then disappears. Faults never apply to the `/_sim/` control routes. GitHub's stand-in (`/_github/`)
 * takes only the faults whose path names it (a fault without a path is the service's, as it was
 * before the stand-in took faults).
 *
 * `processed` says whether the operation really happened (so a test can tell whether a client retry
 * created a duplicate):
 * - `status`: answers `status` instead of the real response; with `processed: true` the operation runs
 *   first and its response is discarded (default false: the operation does not run).
 * - `reset`: destroys the socket without any response, before (`processed: false`) or after
 *   (`processed: true`) performing the operation.
 * - `partial`: performs the operation, sends the headers (with the full Content-Length) and half the
 *   body, then destroys the socket.
 * - `delay`: `processed: true` performs the operation at once and delays the response by `ms`;
 *   `processed: false` waits `ms` first and performs the operation only if the client is still connected
 *   (a client that gives up during the delay caused nothing).
 * - `body`: performs the operation, keeps its status (unless `status` is given) and replaces the body
 *   with the given raw text (truncated JSON, malformed JSON, HTML...).
 * - `mutate`: performs the operation and passes the whole parsed response body (the `{ data }` or
 *   `{ errors }` envelope, a deep copy) through `mutate`; its result is sent as JSON.
 */

export interface FaultMatcher {
  /** Case-insensitive HTTP method; any method when omitted. */
  method?: string;
  /** Path prefix (string, compared with the path without query) or RegExp (tested on path + query). */
  path?: string | RegExp;
  /** How many matching requests the fault applies to; default 1. */
  times?: number;
}

export type FaultKind =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string>; processed?: boolean }
  | { kind: 'reset'; processed: boolean }
  | { kind: 'partial'; processed?: true }
  | { kind: 'delay'; ms: number; processed: boolean }
  | { kind: 'body'; body: string; status?: number; headers?: Record<string, string> }
  | { kind: 'mutate'; mutate: (json: unknown) => unknown };

export type Fault = FaultMatcher & FaultKind;

interface ActiveFault {
  fault: Fault;
  remaining: number;
}

export class FaultRegistry {
  private faults: ActiveFault[] = [];

  add(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new Error('fault.times must be a positive integer');
    this.faults.push({ fault, remaining: times });
  }

  clear(): void {
    this.faults = [];
  }

  /** Faults still pending, in order (with how many more requests each applies to). */
  pending(): Array<Fault & { remaining: number }> {
    return this.faults.map((f) => ({ ...f.fault, remaining: f.remaining }));
  }

  /**
   * The first fault matching this request (consuming one of its `times`), if any; with `named`, only
   * a fault whose path is given.
   */
  take(method: string, url: string, named = false): Fault | undefined {
    const pathname = url.split('?')[0];
    const index = this.faults.findIndex(({ fault }) => {
      if (fault.method && fault.method.toUpperCase() !== method.toUpperCase()) return false;
      if (fault.path === undefined) return !named;
      return typeof fault.path === 'string' ? pathname.startsWith(fault.path) : fault.path.test(url);
    });
    if (index < 0) return undefined;
    const active = this.faults[index];
    active.remaining -= 1;
    if (active.remaining <= 0) this.faults.splice(index, 1);
    return active.fault;
  }
}

const KINDS = ['status', 'reset', 'partial', 'delay', 'body'];

/**
 * A fault described in JSON (for `POST /_sim/faults`): as above without `mutate`; the path is either
 * `path` (prefix) or `pathPattern` (a RegExp source).
 */
export function faultFromJson(json: unknown): Fault {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error('fault must be an object');
  const f = json as Record<string, unknown>;
  if (typeof f['kind'] !== 'string' || !KINDS.includes(f['kind'])) {
    throw new Error(
      `fault.kind must be one of: ${KINDS.join(', ')} (mutate needs a function: use the library API)`,
    );
  }
  const fault = { ...f } as Record<string, unknown>;
  if (typeof f['pathPattern'] === 'string') {
    fault['path'] = new RegExp(f['pathPattern']);
    delete fault['pathPattern'];
  } else if (f['path'] !== undefined && typeof f['path'] !== 'string')
    throw new Error('fault.path must be a string');
  if (f['method'] !== undefined && typeof f['method'] !== 'string')
    throw new Error('fault.method must be a string');
  if (f['times'] !== undefined && (!Number.isInteger(f['times']) || (f['times'] as number) < 1)) {
    throw new Error('fault.times must be a positive integer');
  }
  switch (f['kind']) {
    case 'status':
      if (!Number.isInteger(f['status']) || (f['status'] as number) < 100 || (f['status'] as number) > 599) {
        throw new Error('fault.status must be an HTTP status code');
      }
      break;
    case 'reset':
    case 'delay':
      if (typeof f['processed'] !== 'boolean') throw new Error('fault.processed must be a boolean');
      if (f['kind'] === 'delay' && (typeof f['ms'] !== 'number' || (f['ms'] as number) < 0)) {
        throw new Error('fault.ms must be a non-negative number');
      }
      break;
    case 'body':
      if (typeof f['body'] !== 'string') throw new Error('fault.body must be a string');
      break;
  }
  return fault as unknown as Fault;
}
