/**
 * What each commit status of a step should say and what was last posted of it: the ledger the
 * posting queue (statuses.ts) works from. Contexts compare as GitHub compares them, ignoring case
 * ("This field is case-insensitive", create-a-commit-status): `svc/p/build` and `svc/p/Build` are one
 * context, kept in the spelling first set, so a step never posts two statuses that overwrite each
 * other.
 */
import type { StatusState } from './status-budget.js';

export interface Status {
  state: StatusState;
  description: string;
}

interface Wanted extends Status {
  /** The context as first set (the spelling posted). */
  context: string;
  /** The run's own context: posted before any job's. */
  primary: boolean;
  /** Set by the read-back (a shared context): no later `set` changes it. */
  locked: boolean;
}

/** A context whose wanted state differs from what was last posted. */
export interface Owed {
  context: string;
  primary: boolean;
  state: StatusState;
  /** The state last posted; undefined when none was. */
  last?: StatusState;
}

/** GitHub's reading of a context: one key whatever its case. */
const keyOf = (context: string): string => context.toLowerCase();

export class StatusLedger {
  private readonly wanted = new Map<string, Wanted>();
  private readonly posted = new Map<string, Status & { context: string }>();

  /** What `context` should say; ignored once the context is locked (`lock`). */
  set(context: string, status: Status, primary: boolean): void {
    const key = keyOf(context);
    const before = this.wanted.get(key);
    if (before?.locked) return;
    this.wanted.set(key, { ...status, context: before?.context ?? context, primary, locked: false });
  }

  /** `status` for good: a shared context's `error`, which no later `set` changes. */
  lock(context: string, status: Status): void {
    const key = keyOf(context);
    const before = this.wanted.get(key);
    if (!before || before.locked) return;
    this.wanted.set(key, { ...status, context: before.context, primary: before.primary, locked: true });
  }

  /** Whether this step sets `context` (in any case), and whether it is locked. */
  known(context: string): 'set' | 'shared' | undefined {
    const want = this.wanted.get(keyOf(context));
    return want ? (want.locked ? 'shared' : 'set') : undefined;
  }

  wantedOf(context: string): Status | undefined {
    return this.wanted.get(keyOf(context));
  }

  /** The contexts whose wanted state is still pending. */
  pending(): string[] {
    return [...this.wanted.values()].filter((want) => want.state === 'pending').map((want) => want.context);
  }

  /** Contexts whose wanted state is not what was last posted, in the order first set. */
  owed(): Owed[] {
    return [...this.wanted]
      .filter(([key, want]) => !same(this.posted.get(key), want))
      .map(([key, want]) => ({
        context: want.context,
        primary: want.primary,
        state: want.state,
        last: this.posted.get(key)?.state,
      }));
  }

  lastPosted(context: string): Status | undefined {
    return this.posted.get(keyOf(context));
  }

  markPosted(context: string, status: Status): void {
    const key = keyOf(context);
    this.posted.set(key, { context: this.wanted.get(key)?.context ?? context, ...status });
  }

  /** Contexts `owed`, and with `pendingToo` those that show `pending` as wanted (left to sync-statuses). */
  unsettled(pendingToo: boolean): Owed[] {
    const owed = this.owed();
    if (!pendingToo) return owed;
    const shown = [...this.wanted.values()]
      .filter((want) => want.state === 'pending' && this.posted.get(keyOf(want.context))?.state === 'pending')
      .map((want) => ({ context: want.context, primary: want.primary, state: want.state, last: want.state }));
    return [...owed, ...shown.filter(({ context }) => !owed.some((change) => change.context === context))];
  }

  /** Posted contexts that show `pending`. */
  pendingPosted(): number {
    return [...this.posted.values()].filter((status) => status.state === 'pending').length;
  }

  /** What was posted, by context, in the order first posted. */
  postedStatuses(): Array<{ context: string } & Status> {
    return [...this.posted.values()].map(({ context, state, description }) => ({
      context,
      state,
      description,
    }));
  }
}

function same(a: Status | undefined, b: Status): boolean {
  return a !== undefined && a.state === b.state && a.description === b.description;
}
